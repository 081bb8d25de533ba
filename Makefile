# SPDX-License-Identifier: GPL-2.0
#
# iterkit: character-device driver templates, each in a legacy (.read/.write)
# and a converted (.read_iter/.write_iter) form, tested in real kernels.
#
#   make                  build every module, in both forms, for each kernel
#   make check            build, boot each kernel under QEMU and run the tests
#   make demo             show the kit working
#   make bench            time both forms of each driver, on each kernel
#   make matrix           system calls against every driver, form and kernel
#   make lint             checkpatch --strict and sparse over the kit's sources
#   make diff [DRIVER=d]  the conversion: legacy against converted, per driver
#   make debug DRIVER=d [FORM=f] [KERNEL=k]   gdb on a module in the guest
#   make vm [KERNEL=k] [DRIVER=d FORM=f]      a shell in the guest, for labs
#   make doctest          run the examples in README.md and TUTORIAL.md
#   make clean            remove build/
#
# KERNELS picks the kernels: 6.1 and/or 6.12 (Debian's packages, installed by
# scripts/setup) or the path of a configured and built kernel tree;
# `make KDIR=/path/to/tree` is the same as KERNELS=/path/to/tree.
# DRIVERS picks the drivers that `make check` tests.  debug and vm take one
# KERNEL (default 6.12) and FORM (default converted); debug's gdb stub is on
# port 1234, or PORT.

KERNELS ?= 6.1 6.12
ifdef KDIR
KERNELS := $(KDIR)
endif
ALL_DRIVERS := $(patsubst %/legacy/Kbuild,%,$(wildcard */legacy/Kbuild))
DRIVERS ?= $(ALL_DRIVERS)
FORMS := legacy converted

# Every module directory: the helpers' self-test and each driver's forms.
MODDIRS := common/selftest $(foreach d,$(ALL_DRIVERS),$(d)/legacy $(d)/converted)
TESTS := $(patsubst tests/%.c,build/tests/%,$(wildcard tests/*.c))

TEST_CFLAGS := -static -O2 -g -Wall -Wextra -Werror -pthread

export KERNELS DRIVERS

.PHONY: all modules tests setup check demo lint diff doctest doctest-update
.PHONY: matrix bench debug vm clean

all: modules tests

# Modules build out of tree in build/RELEASE/DIR, a mirror of the source tree
# made of symbolic links, so that each kernel has its own objects.
modules:
	@set -e; for k in $(KERNELS); do \
		eval "$$(scripts/kernel $$k)"; \
		b=$(CURDIR)/build/$$release; \
		mkdir -p $$b/common; \
		find $(CURDIR)/common -maxdepth 1 -type f -exec ln -sfn {} $$b/common/ \; ; \
		for m in $(MODDIRS); do \
			mkdir -p $$b/$$m; \
			ln -sfn $(CURDIR)/$$m/* $$b/$$m/; \
			$(MAKE) -C $$kdir M=$$b/$$m $(KBUILD_ARGS) modules; \
		done; \
	done

tests: $(TESTS)

build/tests/%: tests/%.c $(wildcard tests/*.h)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ $< -luring

setup:
	@scripts/setup

check:
	@scripts/setup
	@$(MAKE) -s all
	@scripts/check

demo:
	@scripts/setup
	@$(MAKE) -s all
	@scripts/demo

# Both forms of each driver under the same workloads, one VM per kernel
# (scripts/bench): a table per kernel, and build/RELEASE/bench.json.  REPS
# repetitions (default 15).  It never fails on the figures.
bench:
	@scripts/setup
	@$(MAKE) -s all
	@scripts/bench

# What each system call does to each driver and form, on each kernel: one
# table on stdout (scripts/matrix), which TUTORIAL.md quotes.
matrix:
	@scripts/setup
	@$(MAKE) -s all
	@scripts/matrix

# checkpatch comes from Debian's linux-source package; sparse runs through
# kbuild (C=2 checks every file, W=1 adds the extra compiler warnings).  Any
# warning fails.  Two exceptions, each to one set of files:
# - common/compat.h is where the kernel version tests live, so
#   LINUX_VERSION_CODE is allowed there and nowhere else;
# - tests/ is userspace: checkpatch's kernel-only advice (kernel types, and
#   volatile, which the tests use for signal flags) is off.
CHECKPATCH := build/checkpatch/scripts/checkpatch.pl
SOURCES = $(shell git ls-files -co --exclude-standard '*.c' '*.h')
COMPAT := common/compat.h
USOURCES = $(filter tests/%,$(SOURCES))
KSOURCES = $(filter-out $(COMPAT) $(USOURCES),$(SOURCES))

$(CHECKPATCH):
	@scripts/setup
	mkdir -p build/checkpatch
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C build/checkpatch \
		--strip-components=1 linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch

lint: $(CHECKPATCH)
	$(CHECKPATCH) --strict --no-tree --quiet --show-types -f $(KSOURCES)
	$(CHECKPATCH) --strict --no-tree --quiet --show-types \
		--ignore LINUX_VERSION_CODE -f $(COMPAT)
	$(CHECKPATCH) --strict --no-tree --quiet --show-types \
		--ignore PREFER_KERNEL_TYPES,VOLATILE -f $(USOURCES)
	@$(MAKE) -s modules KBUILD_ARGS="C=2 W=1" 2>&1 | tee build/lint.log
	@! grep -E 'warning:|error:' build/lint.log
	@echo "lint: clean"

# The labels keep file times out, so that TUTORIAL.md can quote the output.
# diff exits 1 when the files differ, which is the point here.
diff:
	@for d in $(or $(DRIVER),$(ALL_DRIVERS)); do \
		for f in $$(ls $$d/legacy); do \
			diff -u --color=auto --label $$d/legacy/$$f \
				--label $$d/converted/$$f \
				$$d/legacy/$$f $$d/converted/$$f; \
		done; \
	done; true

# The documentation's examples, run as written (scripts/doctest explains the
# marks); doctest-update rewrites the quoted outputs, such as `make diff`.
doctest:
	@scripts/setup
	@$(MAKE) -s all
	@scripts/doctest

doctest-update:
	@scripts/doctest --update

# gdb on DRIVER's FORM module in a guest (scripts/debug), and a shell in a
# guest with every module (a lab: the shell has no time limit).
KERNEL ?= 6.12
FORM ?= converted

debug:
	@test -n "$(DRIVER)" || { echo "make debug: say DRIVER=" \
		"(one of: $(ALL_DRIVERS))" >&2; exit 2; }
	@scripts/setup
	@$(MAKE) -s all KERNELS=$(KERNEL)
	@scripts/debug --kernel $(KERNEL) $(if $(PORT),--port $(PORT)) \
		$(DRIVER) $(FORM)

vm:
	@scripts/setup
	@$(MAKE) -s all KERNELS=$(KERNEL)
	@scripts/vm --kernel $(KERNEL) --timeout 86400 \
		$(if $(DRIVER),--load $(DRIVER):$(FORM))

clean:
	rm -rf build
