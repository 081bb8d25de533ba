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
#   make lab [LAB=n]      the labs; with LAB, write lab n's start into labs/n
#   make grade LAB=n [KERNEL=k]               test labs/n in a guest, score
#   make doctest          run the examples in README.md and TUTORIAL.md
#   make kernels          the guest kernels: cached, and available from Debian
#   make clean            remove build/
#   make clean-kernels    empty the kernel cache
#   make kernel-debug     build the debug kernel (7.x, KASAN, lockdep, ...)
#
# KERNELS picks the kernels: 6.1 and/or 6.12 (the newest of each series in
# Debian's archive, fetched by scripts/kernel into ~/.cache/iterkit, or
# $ITERKIT_CACHE; never installed on the host), debug (Debian's newest 7.x
# source with KASAN, lockdep, UBSAN, kmemleak and DEBUG_OBJECTS, built into
# that cache by scripts/kernel from scripts/debug.config: about 15 minutes
# the first time) or the path of a configured and built kernel tree;
# `make KDIR=/path/to/tree` is KERNELS=/path/to/tree.  The default is 6.1
# 6.12; check and lint add debug.  DRIVERS picks the drivers that `make
# check` tests; JOBS how many VMs it runs at once (default: one per core;
# JOBS=1 runs one after the other).  debug and vm take one KERNEL (default
# 6.12) and FORM (default converted); debug's gdb stub is on port 1234, or
# PORT.  DRIVERS also narrows the build: make check DRIVERS=d builds d's
# modules and the helpers' self-test only.

ifdef KDIR
KERNELS := $(KDIR)
endif
ifeq ($(origin KERNELS),undefined)
KERNELS := 6.1 6.12
CHECK_KERNELS := 6.1 6.12 debug
endif
CHECK_KERNELS ?= $(KERNELS)
ALL_DRIVERS := $(patsubst %/legacy/Kbuild,%,$(wildcard */legacy/Kbuild))
DRIVERS ?= $(ALL_DRIVERS)
FORMS := legacy converted

# The module directories: the helpers' self-test and DRIVERS' forms.
MODDIRS := common/selftest $(foreach d,$(DRIVERS),$(d)/legacy $(d)/converted)
TESTS := $(patsubst tests/%.c,build/tests/%,$(wildcard tests/*.c))

TEST_CFLAGS := -static -O2 -g -Wall -Wextra -Werror -pthread

export KERNELS DRIVERS JOBS

.PHONY: all modules modules-for tests setup check demo lint diff doctest doctest-update
.PHONY: matrix bench debug vm lab grade clean kernels clean-kernels kernel-debug

all: modules tests

# Modules build out of tree in build/RELEASE/DIR, a mirror of the source tree
# made of symbolic links, so that each kernel has its own objects.  The
# kernels build side by side (modules-for builds one: K=).  A directory
# with nothing newer than its last plain build (its files, common/'s, the
# kernel's Module.symvers) is skipped: kbuild would find nothing to do, in
# a second or two.
modules:
	@pids=; for k in $(KERNELS); do \
		$(MAKE) modules-for K=$$k & pids="$$pids $$!"; \
	done; \
	rc=0; for p in $$pids; do wait $$p || rc=1; done; exit $$rc

modules-for:
	@set -e; eval "$$(scripts/kernel $(K))"; \
	b=$(CURDIR)/build/$$release; \
	mkdir -p $$b/common; \
	find $(CURDIR)/common -maxdepth 1 -type f -exec ln -sfn {} $$b/common/ \; ; \
	for m in $(MODDIRS); do \
		mkdir -p $$b/$$m; \
		ln -sfn $(CURDIR)/$$m/* $$b/$$m/; \
		s=$$b/$$m/.kit-built; \
		[ -z "$(KBUILD_ARGS)" ] && [ -f $$s ] && [ -z "$$(find \
			$(CURDIR)/$$m $(CURDIR)/common $$kdir/Module.symvers \
			-maxdepth 1 -newer $$s)" ] && continue; \
		rm -f $$s; \
		$(MAKE) -C $$kdir M=$$b/$$m $(KBUILD_ARGS) modules; \
		[ -n "$(KBUILD_ARGS)" ] || touch $$s; \
	done

tests: $(TESTS)

build/tests/%: tests/%.c $(wildcard tests/*.h)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ $< -luring

# What every target that boots a guest does first: the host's tools
# (scripts/setup, through sudo), the kernels (scripts/kernel, no root; the
# newest release of each series), then the build.
PREPARE = scripts/setup && scripts/kernel fetch $(KERNELS) && $(MAKE) -s all

setup:
	@scripts/setup

check: KERNELS = $(CHECK_KERNELS)
check:
	@$(PREPARE)
	@scripts/check

demo:
	@$(PREPARE)
	@scripts/demo

# Both forms of each driver under the same workloads, one VM per kernel
# (scripts/bench): a table per kernel, and build/RELEASE/bench.json.  REPS
# repetitions (default 15).  It never fails on the figures.
bench:
	@$(PREPARE)
	@scripts/bench

# What each system call does to each driver and form, on each kernel: one
# table on stdout (scripts/matrix), which TUTORIAL.md quotes.
matrix:
	@$(PREPARE)
	@scripts/matrix

# checkpatch comes from Debian's linux-source-6.1 package, which
# scripts/kernel fetches into its cache; sparse runs through kbuild (C=2
# checks every file, W=1 adds the extra compiler warnings), a newer one than
# Debian 12's, which 7.x refuses (scripts/kernel sparse builds it into the
# cache).  Any warning fails, and so does a kernel that turns sparse off.
# Two exceptions, each to one set of files:
# - common/compat.h is where the kernel version tests live, so
#   LINUX_VERSION_CODE is allowed there and nowhere else;
# - tests/ is userspace: checkpatch's kernel-only advice (kernel types, and
#   volatile, which the tests use for signal flags) is off.
# The labs' starts (scripts/lab) get sparse and W=1 too, not checkpatch:
# they hold legacy code under TODOs.
SOURCES = $(shell git ls-files -co --exclude-standard '*.c' '*.h')
COMPAT := common/compat.h
USOURCES = $(filter tests/%,$(SOURCES))
KSOURCES = $(filter-out $(COMPAT) $(USOURCES),$(SOURCES))
CHECKPATCH := checkpatch.pl --strict --no-tree --quiet --show-types

lint: KERNELS = $(CHECK_KERNELS)
lint:
	@scripts/setup && scripts/kernel fetch $(KERNELS)
	@set -e; PATH=$$(scripts/kernel checkpatch)/scripts:$$PATH; \
	$(CHECKPATCH) -f $(KSOURCES); \
	$(CHECKPATCH) --ignore LINUX_VERSION_CODE -f $(COMPAT); \
	$(CHECKPATCH) --ignore PREFER_KERNEL_TYPES,VOLATILE -f $(USOURCES)
	@mkdir -p build
	@$(MAKE) -s modules KBUILD_ARGS="C=2 W=1 CHECK=$$(scripts/kernel sparse)" \
		2>&1 | tee build/lint.log
	@scripts/lab starts build/labs/start && for k in $(KERNELS); do \
		KBUILD_ARGS="C=2 CHECK=$$(scripts/kernel sparse)" \
		scripts/lab build $$k build/labs/start/* >/dev/null; \
	done 2>&1 | tee -a build/lint.log
	@! grep -E 'warning:|error:|^lab: |not available or not up to date' build/lint.log
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
	@$(PREPARE)
	@scripts/doctest

doctest-update:
	@scripts/doctest --update

# gdb on DRIVER's FORM module in a guest (scripts/debug), and a shell in a
# guest with every module (a lab: the shell has no time limit).
KERNEL ?= 6.12
FORM ?= converted

debug: KERNELS = $(KERNEL)
debug:
	@test -n "$(DRIVER)" || { echo "make debug: say DRIVER=" \
		"(one of: $(ALL_DRIVERS))" >&2; exit 2; }
	@$(PREPARE)
	@scripts/debug --kernel $(KERNEL) $(if $(PORT),--port $(PORT)) \
		$(DRIVER) $(FORM)

vm: KERNELS = $(KERNEL)
vm:
	@$(PREPARE)
	@scripts/vm --kernel $(KERNEL) --timeout 86400 \
		$(if $(DRIVER),--load $(DRIVER):$(FORM))

# The labs (scripts/lab, TUTORIAL.md): lab writes lab LAB's start into
# labs/LAB/ (yours: git ignores it); grade builds it for KERNEL (default
# 6.12), runs its driver's tests against it in a guest, and scores it.
lab:
	@scripts/lab $(if $(LAB),start $(LAB))

grade: KERNELS = $(KERNEL)
grade: DRIVERS = $(if $(LAB),$(shell scripts/lab driver $(LAB)))
grade:
	@test -n "$(LAB)" || { echo "make grade: say LAB= (make lab" \
		"lists them)" >&2; exit 2; }
	@$(PREPARE)
	@scripts/lab grade --kernel $(KERNEL) $(LAB)

kernels:
	@scripts/kernel list

kernel-debug:
	@scripts/setup && scripts/kernel build

clean:
	rm -rf build

clean-kernels:
	@scripts/kernel clean
