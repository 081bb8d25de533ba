# SPDX-License-Identifier: GPL-2.0
#
# iterkit: character-device driver templates, each in a legacy (.read/.write)
# and a converted (.read_iter/.write_iter) form, tested in real kernels.
#
#   make                  build every module, in both forms, for each kernel
#   make check            build, boot each kernel under QEMU and run the tests
#   make demo             show the kit working
#   make lint             checkpatch --strict and sparse over the kit's sources
#   make diff [DRIVER=d]  the conversion: legacy against converted, per driver
#   make clean            remove build/
#
# KERNELS picks the kernels: 6.1 and/or 6.12 (Debian's packages, installed by
# scripts/setup) or the path of a configured and built kernel tree;
# `make KDIR=/path/to/tree` is the same as KERNELS=/path/to/tree.
# DRIVERS picks the drivers that `make check` tests.

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

.PHONY: all modules tests check demo lint setup diff clean

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

# diff exits 1 when the files differ, which is the point here.
diff:
	@for d in $(or $(DRIVER),$(ALL_DRIVERS)); do \
		for f in $$(ls $$d/legacy); do \
			diff -u --color=auto $$d/legacy/$$f $$d/converted/$$f; \
		done; \
	done; true

clean:
	rm -rf build
