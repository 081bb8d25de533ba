# SPDX-License-Identifier: GPL-2.0
#
# iterkit: character-device driver templates, each in a legacy (.read/.write)
# and a converted (.read_iter/.write_iter) form, tested in real kernels.
#
#   make                  build every module, in both forms, for each kernel
#   make help             the routes through the kit, and these targets, briefly
#   make check            build, boot each kernel under QEMU and run the tests
#   make demo [KERNEL=k]  show the kit working
#   make bench            measure both forms of each driver, on each kernel
#   make matrix           system calls against every driver, form and kernel
#   make lint             checkpatch --strict and sparse over the kit's sources
#   make diff [DRIVER=d]  the conversion: legacy against converted, per driver
#   make convert SRC=f.c  scripts/convert on a file of yours (MODE=wrap, IN_PLACE=1)
#   make convert-check    the converter's output of each legacy form, tested
#   make convert-diff [DRIVER=d]  its native output against the hand conversion
#   make convert-survey   the converter on Debian's kernel source (long)
#   make convert-upstream [DIRS=d]  its upstream series, booted (long)
#   make debug DRIVER=d [FORM=f] [KERNEL=k]   gdb on a module in the guest
#   make vm [KERNEL=k] [DRIVER=d FORM=f | LAB=n] [CMD=c]  a guest: shell, CMD
#   make lab [LAB=n]      the labs; with LAB, write lab n's start into labs/n
#   make grade LAB=n [KERNEL=k] [STEP=k|TEST=name] [JUNIT=file]  test labs/n, score
#   make hint LAB=n [STEP=k]  a hint: the step's idea; asked again, its API
#   make grade-class LAB=n DIR=d [CSV=file]   grade d/*/ (students), a CSV
#   make handout DIR=d [LAB="n..."]           a student's copy: no answers
#   make doctest          run the examples in README, TUTORIAL and docs/
#   make site             the study site, build/site/index.html
#   make site-check       build it and check every page in headless Chromium
#   make kernels          the guest kernels: cached, and available from Debian
#   make clean            remove build/
#   make clean-kernels    empty the kernel cache
#   make kernel-debug     build the debug kernel (7.x, KASAN, lockdep, ...)
#   make coverage         what the debug kernel's tests run of each template
#   make faults           the fault-injection lane alone, on the debug kernel
#   make compile_commands.json [KERNEL=k]   the compile database, for clangd
#
# KERNELS picks the kernels: 6.1 and/or 6.12 (the newest of each series in
# Debian's archive, fetched by scripts/kernel into ~/.cache/iterkit, or
# $ITERKIT_CACHE; never installed on the host), arm64-6.1 and arm64-6.12
# (Debian's arm64 builds of them: arm64 guests, cross-built on an amd64
# host), debug (Debian's newest 7.x source with KASAN, lockdep, UBSAN,
# kmemleak and DEBUG_OBJECTS, built into that cache by scripts/kernel from
# scripts/debug.config, once: it says how far it is as it goes) or the path
# of a configured and built kernel tree; `make KDIR=/path/to/tree` is
# KERNELS=/path/to/tree.  By default, the build, demo, bench, matrix and
# doctest use the host's architecture's two series (scripts/arch kernels):
# 6.1 and 6.12 on amd64, arm64-6.1 and arm64-6.12 on arm64; check, lint and
# convert-check add debug and arm64-6.12 on amd64 (scripts/arch check);
# debug, vm and grade take one kernel, 6.12 (arm64-6.12 on arm64); and
# compile_commands.json one, 6.1.  DRIVERS picks the drivers that `make
# check` tests (and narrows its build to their modules and the helpers'
# self-test); JOBS how many VMs it runs at once (default: one more than
# the cores; JOBS=1 runs one after the other).  debug and vm take FORM (default
# converted); debug's gdb stub is on port 1234, or PORT.
#
# KERNEL and KERNELS are one variable, and so are DRIVER and DRIVERS: either
# spelling works with every target (make check DRIVER=misc-fifo tests
# misc-fifo).  A target that takes one kernel stops when given several, and
# a name that is no kernel or driver of the kit stops make at once, with the
# names it knows.

ifdef KDIR
KERNELS := $(KDIR)
endif

# Was VAR given on the command line?  (Not from the environment, where a
# make's exported KERNELS and DRIVERS reach the makes that its recipes run.)
given = $(filter command line,$(origin $(1)))

ifneq ($(and $(call given,KERNEL),$(call given,KERNELS)),)
ifneq ($(strip $(KERNEL)),$(strip $(KERNELS)))
$(error KERNEL=$(KERNEL) and KERNELS=$(KERNELS): one variable, two values; give one)
endif
endif
ifneq ($(call given,KERNEL),)
KERNELS := $(KERNEL)
else ifneq ($(call given,KERNELS),)
KERNEL := $(KERNELS)
endif

# The host's architecture, and its default kernels (scripts/arch).
HOST_ARCH := $(shell scripts/arch host)
ifeq ($(origin KERNELS),undefined)
KERNELS := $(shell scripts/arch kernels)
CHECK_KERNELS := $(shell scripts/arch check)
endif
ifndef CHECK_KERNELS
CHECK_KERNELS := $(KERNELS)
endif
ALL_DRIVERS := $(patsubst %/legacy/Kbuild,%,$(wildcard */legacy/Kbuild))

ifneq ($(and $(call given,DRIVER),$(call given,DRIVERS)),)
ifneq ($(strip $(DRIVER)),$(strip $(DRIVERS)))
$(error DRIVER=$(DRIVER) and DRIVERS=$(DRIVERS): one variable, two values; give one)
endif
endif
ifneq ($(call given,DRIVER),)
DRIVERS := $(DRIVER)
else ifneq ($(call given,DRIVERS),)
DRIVER := $(DRIVERS)
endif
DRIVERS ?= $(ALL_DRIVERS)

# The names: a series, an architecture's build of it (arm64-6.12), the
# debug kernel, or a kernel tree's path (with a /).
SERIES := 6.1 6.12
KNOWN_KERNELS := $(SERIES) $(addprefix arm64-,$(SERIES)) debug
bad_kernels := $(filter-out $(KNOWN_KERNELS) %/ \
	$(foreach k,$(KERNELS),$(if $(findstring /,$(k)),$(k))),$(KERNELS))
ifneq ($(bad_kernels),)
$(error no kernel $(bad_kernels) in this kit: the kernels are $(KNOWN_KERNELS), or a built kernel tree's path (make kernels: what Debian has))
endif
bad_drivers := $(filter-out $(ALL_DRIVERS),$(DRIVERS))
ifneq ($(bad_drivers),)
$(error no driver $(bad_drivers) in this kit: the drivers are $(ALL_DRIVERS))
endif

# The module directories: the helpers' self-test and DRIVERS' forms (a
# student's hand-out, scripts/lab handout, has no converted ones).
MODDIRS = common/selftest $(patsubst %/Kbuild,%,$(wildcard \
	$(foreach d,$(DRIVERS),$(d)/legacy/Kbuild $(d)/converted/Kbuild)))
# scripts/convert's output of each legacy form (make convert-outputs), in
# build/convert/DRIVER/wrapped and /native: built like the others when
# present (DRIVERS' only), and with W=1 and sparse, where any warning fails.
CONVERT_DIRS = $(filter $(addsuffix /%,$(DRIVERS)),\
	$(patsubst build/convert/%/Kbuild,%,$(wildcard build/convert/*/*/Kbuild)))
# The test programs: build/tests/ for the host's architecture (always: the
# graders list their tests on the host), and build/tests-ARCH/ for another
# architecture that KERNELS boot (cross-built; scripts/vm takes each guest's
# own).
XARCH := $(if $(filter arm64,$(HOST_ARCH)),amd64,arm64)
GUEST_ARCHS = $(sort $(foreach k,$(KERNELS),$(shell scripts/arch of $(k))))
TEST_NAMES := $(patsubst tests/%.c,%,$(wildcard tests/*.c))
TESTS = $(addprefix build/tests/,$(TEST_NAMES)) \
	$(if $(filter $(XARCH),$(GUEST_ARCHS)),\
		$(addprefix build/tests-$(XARCH)/,$(TEST_NAMES)))

TEST_CFLAGS := -static -O2 -g -Wall -Wextra -Werror -pthread

export KERNELS DRIVERS JOBS

.PHONY: all modules modules-for tests setup help help-kit help-handout
.PHONY: check demo kit-only lint diff doctest doctest-update
.PHONY: matrix bench debug vm lab grade grade-class handout hint
.PHONY: clean kernels clean-kernels kernel-debug coverage faults
.PHONY: compile_commands.json site site-check
.PHONY: convert convert-outputs convert-check convert-diff convert-survey
.PHONY: convert-upstream

all: modules tests

# Modules build out of tree in build/RELEASE/DIR, a mirror of the source tree
# made of symbolic links, so that each kernel has its own objects, and with
# the kit's test hooks where a driver's tests need them (scripts/test-hooks:
# tests/hooks/, which no template's own Kbuild builds).  The kernels build
# side by side (modules-for builds one: K=).  A directory whose sources,
# common/ and the kernel's symbols are as at its last build (a checksum of
# their contents in .kit-built: not their times, which a file put back with
# mv or cp -p keeps) is not handed to kbuild again; one that changed is
# built afresh.  make lint's build (KBUILD_ARGS: sparse and W=1) always
# runs; it adds checks and changes no object, so it leaves the checksum
# too, and a make check after it builds nothing again.  Each kernel's build
# holds a lock (scripts/lib/lock.sh, in build/locks/) that scripts/vm shares
# while it copies the modules into a guest: another make that builds them
# (make lint builds them all again) waits, saying for what and whom, and a
# guest never gets a module half built.
modules:
	@pids=; for k in $(KERNELS); do \
		$(MAKE) modules-for K=$$k & pids="$$pids $$!"; \
	done; \
	rc=0; for p in $$pids; do wait $$p || rc=1; done; exit $$rc

# A lock in a recipe, for bash: $(LOCK) NAME WHAT DOING, held until the
# recipe's line ends.
LOCK = lockdir=$(CURDIR)/build/locks lock_tag=make; \
	. $(CURDIR)/scripts/lib/lock.sh; lock

# What a module directory's build reads: its files, common/'s, the hooks'
# and, for common/selftest (kit_skelhold's struct usb_skel), the skeleton's.
SUM = find $$src $(CURDIR)/common $(wildcard $(CURDIR)/tests/hooks) \
	$$([ "$$src" != $(CURDIR)/common/selftest ] || \
		echo $(wildcard $(CURDIR)/skeleton/*/kitskel.c)) \
	-maxdepth 1 -type f | \
	sort | \
	xargs cat $$kdir/Module.symvers | md5sum

# Debian's 6.1 headers hold no vmlinux, without which kbuild makes no
# module's BTF and says so for each module: it is not asked to.
NOBTF = $$([ -f $$kdir/vmlinux ] || echo CONFIG_DEBUG_INFO_BTF_MODULES=)

# A kernel with gcov (the debug kernel) gets every module with coverage
# counts (GCOV_PROFILE=y, for make coverage; scripts/coverage) and without
# inlining, whose code gcov counts at the caller's lines: the build adds
# both, so that no template's Kbuild carries them.
modules-for: SHELL := /bin/bash
modules-for:
	@set -e; eval "$$(scripts/kernel $(K))"; \
	$(LOCK) "modules-$$release" "the modules in build/$$release" \
		"building them"; \
	b=$(CURDIR)/build/$$release; \
	gcov=$$(grep -qx CONFIG_GCOV_KERNEL=y $$kdir/.config 2>/dev/null && \
		echo "GCOV_PROFILE=y KCFLAGS=-fno-inline" || true); \
	mkdir -p $$b/common; \
	find $(CURDIR)/common -maxdepth 1 -type f -exec ln -sfn {} $$b/common/ \; ; \
	for m in $(MODDIRS); do \
		mkdir -p $$b/$$m; \
		ln -sfn $(CURDIR)/$$m/* $$b/$$m/; \
		src=$(CURDIR)/$$m; sum=$$($(SUM)); s=$$b/$$m/.kit-built; \
		[ -z "$(KBUILD_ARGS)" ] && [ "$$sum" = "$$(cat $$s 2>/dev/null)" ] && \
			continue; \
		rm -f $$s $$b/$$m/*.o $$b/$$m/*.ko; \
		hooks=$$(scripts/test-hooks $$m $$b/$$m); \
		$(MAKE) -C $$kdir M=$$b/$$m $$kbuild $(NOBTF) $$gcov $(KBUILD_ARGS) \
			$$hooks modules; \
		echo "$$sum" >$$s; \
	done; \
	for m in $(CONVERT_DIRS); do \
		mkdir -p $$b/$$m; \
		ln -sfn $(CURDIR)/build/convert/$$m/*.c \
			$(CURDIR)/build/convert/$$m/Kbuild $$b/$$m/; \
		src=$(CURDIR)/build/convert/$$m; sum=$$($(SUM)); \
		s=$$b/$$m/.kit-built; \
		[ "$$sum" = "$$(cat $$s 2>/dev/null)" ] && continue; \
		rm -f $$s $$b/$$m/*.o $$b/$$m/*.ko; \
		hooks=$$(scripts/test-hooks build/convert/$$m $$b/$$m); \
		$(MAKE) -C $$kdir M=$$b/$$m $$kbuild $(NOBTF) W=1 C=2 \
			CHECK=$$(scripts/kernel sparse) $$hooks modules \
			>$$b/$$m/build.log 2>&1 || { cat $$b/$$m/build.log; exit 1; }; \
		if grep -E 'warning:|error:|not available or not up to date' \
			$$b/$$m/build.log; then \
			echo "convert: $$m: not W=1 and sparse clean on $$release"; \
			exit 1; \
		fi; \
		echo "$$sum" >$$s; \
	done

tests: $(TESTS)

# Each test program is written whole, then renamed into place, so that
# scripts/vm, which copies them into each guest, never copies half of one.
build/tests/%: tests/%.c $(wildcard tests/*.h)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@.tmp$$$$ $< -luring && mv $@.tmp$$$$ $@

# Another architecture's: its cross compiler (scripts/arch), and liburing
# from its liburing-dev (scripts/kernel userland: in the kernel cache).
XCC := $(shell scripts/arch vars $(XARCH) | sed -n 's/.* cc=\([^ ]*\).*/\1/p')
XUSERLAND = $(eval XUSERLAND := \
	$(shell scripts/kernel userland $(XARCH)))$(XUSERLAND)
build/tests-$(XARCH)/%: tests/%.c $(wildcard tests/*.h)
	@mkdir -p $(@D)
	$(XCC) $(TEST_CFLAGS) -I$(XUSERLAND)/usr/include -o $@.tmp$$$$ $< \
		-L$(XUSERLAND)/usr/lib/$(XCC:%-gcc=%) -luring && mv $@.tmp$$$$ $@

# What every target that boots a guest does first: the host's tools
# (scripts/setup, through sudo), the kernels (scripts/kernel, no root; the
# newest release of each series), then the build.  The tools are those of
# what the target runs: scripts/setup's base group, its kernel-build group
# when KERNELS has the debug kernel, its arm64 group when KERNELS boot arm64
# guests, and the groups in SETUP_GROUPS.
SETUP = scripts/setup base $(if $(filter debug,$(KERNELS)),kernel-build) \
	$(if $(filter arm64,$(GUEST_ARCHS)),arm64) $(SETUP_GROUPS)
PREPARE = $(SETUP) && scripts/kernel fetch $(KERNELS) && $(MAKE) -s all
# The labs' targets (vm LAB=, grade, grade-class) build the labs' test
# programs (vm's shell kitio too) and the helpers' modules that tests load
# (common/selftest: kit_kread.ko, kit_usbhalt.ko) only: scripts/lab builds
# the student's module, and the guest needs none of the drivers'.  Only
# KERNELS' (a sub-make does not see a target's own KERNELS), all at once.
LAB_PROGS = $(LAB_DRIVERS) $(if $(filter vm,$(MAKECMDGOALS)),kitio)
LAB_PREPARE = $(SETUP) && scripts/kernel fetch $(KERNELS) && \
	$(MAKE) -s -j$(shell nproc) modules DRIVERS= KERNELS="$(KERNELS)" \
	$(addprefix build/tests/,$(LAB_PROGS)) \
	$(if $(filter $(XARCH),$(GUEST_ARCHS)),\
		$(addprefix build/tests-$(XARCH)/,$(LAB_PROGS)))

# Does DRIVERS name every driver?  (A full check tests the kit's tools too.)
EVERY = $(if $(filter-out $(DRIVERS),$(ALL_DRIVERS)),,1)

setup:
	@scripts/setup

# The routes through the kit, then the targets as this file's head lists
# them.
# A hand-out of labs (its .labs) has its own help: the labs' targets.
help: $(if $(wildcard .labs),help-handout,help-kit)
help-handout:
	@echo "iterkit's labs $$(cat .labs): the course is TUTORIAL.md, the"
	@echo "commands docs/students.md."
	@sed -n 's/^#   \(make \(lab\|vm\|grade\|hint\|site\) \)/  \1/p' Makefile
help-kit:
	@echo "iterkit: character-device drivers, each in a legacy (.read/.write)"
	@echo "and a converted (.read_iter/.write_iter) form, tested in real kernels."
	@echo
	@echo "Routes (README.md: a page for each):"
	@echo "  students        make demo; make lab, then make lab LAB=1 and"
	@echo "                  make grade LAB=1 (6.12 only: no debug kernel)"
	@echo "  teachers        make handout DIR=d LAB=n: a copy without answers;"
	@echo "                  make grade-class LAB=n DIR=d: a class's gradebook"
	@echo "  driver authors  make diff DRIVER=d: a conversion; scripts/new-driver"
	@echo "                  NAME --from d --into ~/src/NAME: a driver of yours"
	@echo "  converting      make convert SRC=f.c: a driver of yours converted;"
	@echo "                  then built and tested in scripts/vm (docs/converting.md)"
	@echo "  maintainers     make check (every test, on 6.1, 6.12, the debug"
	@echo "                  kernel and arm64-6.12), make lint, make doctest,"
	@echo "                  make site-check"
	@echo
	@echo "Targets (KERNELS=, DRIVERS= narrow them; make check DRIVERS=misc-fifo"
	@echo "KERNELS=6.12 is one driver on one kernel):"
	@sed -n 's/^#   make /  make /p' Makefile

# A full check also tests the converter's outputs (convert-outputs, before
# the build, which builds them); a check that DRIVERS narrows does not.
check: KERNELS = $(CHECK_KERNELS)
check: SETUP_GROUPS = $(if $(EVERY),python gdb convert dkms)
check:
	@$(SETUP) $(if $(EVERY),&& $(MAKE) -s convert-outputs)
	@scripts/kernel fetch $(KERNELS) && $(MAKE) -s all
	@scripts/check

# scripts/convert on a file of yours: a patch on stdout and a report, or the
# file rewritten (IN_PLACE=1); MODE=wrap for the wrapper only.
convert:
	@test -n "$(SRC)" || { echo "make convert: say SRC=file.c" >&2; exit 2; }
	@scripts/setup convert
	@scripts/convert --$(or $(MODE),native) $(if $(IN_PLACE),--in-place) $(SRC)

# The converter's output of each driver's legacy form, in both modes, in
# build/convert/DRIVER/{wrapped,native} with the report in convert.log;
# made again when the sources or the converter change.
CONVERTER := scripts/convert $(wildcard convert/*.cocci convert/iterconv/*.py)
convert-outputs: $(foreach d,$(DRIVERS),\
	build/convert/$(d)/wrapped/Kbuild build/convert/$(d)/native/Kbuild)

.SECONDEXPANSION:
build/convert/%/Kbuild: $$(dir $$*)legacy/Kbuild \
		$$(wildcard $$(dir $$*)legacy/*.c) $(CONVERTER)
	@rm -rf $(@D) && mkdir -p $(@D) && cp $(dir $*)legacy/*.c $(@D)/
	@scripts/convert --$(if $(filter wrapped,$(notdir $*)),wrap,native) \
		--no-tree --in-place $(@D)/*.c 2>$(@D)/convert.log || \
		{ cat $(@D)/convert.log; exit 1; }
	@cp $< $@

# The converter's outputs alone: built W=1 and sparse clean on each kernel,
# and tested in the suite's VM (kit-run) with the legacy form's tests
# (wrapped) or the iterator path's (native); make check does this too, in
# its suite VMs.
convert-check: KERNELS = $(CHECK_KERNELS)
convert-check: SETUP_GROUPS = convert
convert-check:
	@$(SETUP) && $(MAKE) -s convert-outputs
	@scripts/kernel fetch $(KERNELS) && $(MAKE) -s all
	@FORMS="wrapped native" scripts/check

# The converter's native output against the hand-converted form, as make
# diff shows legacy against converted (TUTORIAL.md quotes it).
convert-diff:
	@scripts/setup convert && $(MAKE) -s convert-outputs
	@for d in $(DRIVERS); do \
		for f in $$(cd $$d/converted && ls *.c); do \
			diff -u --label "scripts/convert $$d/legacy/$$f" \
				--label $$d/converted/$$f \
				build/convert/$$d/native/$$f $$d/converted/$$f; \
		done; \
	done; true

# The converter on real drivers: Debian's newest kernel source, compiled
# against allmodconfig; writes convert/survey.txt (scripts/convert-survey).
convert-survey:
	@scripts/setup base kernel-build convert && scripts/convert-survey

# Its upstream mode on DIRS of the debug kernel's tree (default
# drivers/char): the series written and checked, the kernel built with it
# and booted under make check's suite and the converter's guest tests
# (scripts/convert-upstream).
convert-upstream:
	@scripts/setup base kernel-build convert && \
		scripts/convert-upstream $(DIRS)

demo:
	@$(PREPARE)
	@scripts/demo

# A hand-out of labs (scripts/lab handout, which leaves a .labs file) holds
# the labs and the legacy forms, not the kit's converted forms and tools:
# there, the kit's own targets say so, and what to run instead, rather than
# fail on a script that isn't there.
KIT_ONLY := demo check convert-check bench matrix lint doctest site-check \
	coverage faults
$(KIT_ONLY): kit-only
kit-only:
	@if [ -f .labs ]; then \
		echo "make $(MAKECMDGOALS): not in this hand-out of lab(s)" \
			"$$(cat .labs): make lab lists them, and your first" \
			"make grade LAB=N sets up what they need" >&2; \
		exit 2; \
	fi

# Both forms of each driver under the same workloads, one VM per kernel
# (bench/run): one table, and build/RELEASE/bench.json.  Under TCG it
# counts instructions (BENCH=wall: the host's clock, as under KVM).  REPS
# repetitions (default 5 counted, 15 timed).  It never fails on the figures.
bench: SETUP_GROUPS = python
bench:
	@$(PREPARE)
	@bench/run

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
# - tests/ is userspace (but for tests/hooks/, the drivers' test hooks):
#   checkpatch's kernel-only advice (kernel types, and volatile, which the
#   tests use for signal flags) is off.
# convert/test/ holds scripts/convert's test cases, some broken on purpose
# (tests/host/convert compiles the others): not linted.  The labs' starts
# (scripts/lab) get sparse and W=1 too, not checkpatch: they hold legacy
# code under TODOs.  The build's output goes to build/lint.log, under a
# lock: a second make lint in the checkout waits for the first.
SOURCES = $(filter-out convert/test/%,\
	$(shell git ls-files -co --exclude-standard '*.c' '*.h'))
COMPAT := common/compat.h
USOURCES = $(filter-out tests/hooks/%,$(filter tests/%,$(SOURCES)))
KSOURCES = $(filter-out $(COMPAT) $(USOURCES),$(SOURCES))
CHECKPATCH := checkpatch.pl --strict --no-tree --quiet --show-types

lint: KERNELS = $(CHECK_KERNELS)
lint: DRIVERS = $(ALL_DRIVERS)
lint: SETUP_GROUPS = lint
lint: SHELL := /bin/bash
lint:
	@$(SETUP) && scripts/kernel fetch $(KERNELS)
	@set -e; PATH=$$(scripts/kernel checkpatch)/scripts:$$PATH; \
	$(CHECKPATCH) -f $(KSOURCES); \
	$(CHECKPATCH) --ignore LINUX_VERSION_CODE -f $(COMPAT); \
	$(CHECKPATCH) --ignore PREFER_KERNEL_TYPES,VOLATILE -f $(USOURCES)
	@$(LOCK) lint "make lint's build/lint.log" "linting"; \
	$(MAKE) -s modules KBUILD_ARGS="C=2 W=1 CHECK=$$(scripts/kernel sparse)" \
		2>&1 | tee build/lint.log; \
	scripts/lab starts build/labs/start || exit 1; \
	for k in $(KERNELS); do \
		KBUILD_ARGS="C=2 CHECK=$$(scripts/kernel sparse)" \
		scripts/lab build $$k build/labs/start/* >/dev/null; \
	done 2>&1 | tee -a build/lint.log; \
	! grep -v ': waiting for ' build/lint.log | \
		grep -E 'warning:|error:|^lab: |not available or not up to date'
	@scripts/compile-commands --check \
		$(if $(filter 6.1,$(KERNELS)),6.1,$(firstword $(KERNELS))) \
		misc-fifo/converted/kitfifo.c debugfs-demo/converted/kit_debugfs.c
	@echo "lint: clean"

# The labels keep file times out, so that TUTORIAL.md can quote the output.
# diff exits 1 when the files differ, which is the point here.
diff:
	@for d in $(DRIVERS); do \
		for f in $$(ls $$d/legacy); do \
			diff -u --color=auto --label $$d/legacy/$$f \
				--label $$d/converted/$$f \
				$$d/legacy/$$f $$d/converted/$$f; \
		done; \
	done; true

# The documentation's examples, run as written (scripts/doctest explains the
# marks); doctest-update rewrites the quoted outputs, such as `make diff`.
# Some examples boot an arm64 guest, whose tools the all group leaves out.
doctest: SETUP_GROUPS = all arm64
doctest:
	@$(PREPARE)
	@scripts/doctest

doctest-update:
	@scripts/doctest --update

# The study site (site/build): static pages in build/site/, each driver's
# forms side by side with TUTORIAL.md's notes on each hunk, the documents,
# the matrix and the benchmark's plots, from the last runs' output; no VM.
# site-check loads every page in headless Chromium (site/check).  In a
# hand-out (its .labs), site/build makes the student edition: the course's
# pages only, which need pandoc alone.
site:
	@scripts/setup $(if $(wildcard .labs),course,site)
	@site/build

site-check: site
	@site/check

# gdb on DRIVER's FORM module in a guest (scripts/debug), and a shell in a
# guest with every module (the shell has no time limit): DRIVER's FORM
# loaded, or lab LAB's module, built from labs/LAB (scripts/lab vm).  With
# CMD, vm runs that shell command in the guest instead, without a terminal
# (in a pipe, a script), and fails if it fails (make's own status, 2:
# scripts/vm and scripts/lab vm exit with the command's).
KERNEL ?= $(shell scripts/arch kernel)
FORM ?= converted

# Those that take one kernel, and one driver.
ifneq ($(filter debug vm grade compile_commands.json,$(MAKECMDGOALS)),)
ifneq ($(words $(KERNEL)),1)
$(error make $(filter debug vm grade compile_commands.json,$(MAKECMDGOALS)) takes one kernel (KERNEL=$(firstword $(KERNEL)), say), not $(KERNEL))
endif
endif
ifneq ($(filter debug vm,$(MAKECMDGOALS)),)
ifneq ($(call given,DRIVER)$(call given,DRIVERS),)
ifneq ($(words $(DRIVER)),1)
$(error make $(filter debug vm,$(MAKECMDGOALS)) takes one driver (DRIVER=$(firstword $(DRIVER)), say), not $(DRIVER))
endif
endif
endif

debug: KERNELS = $(KERNEL)
debug: SETUP_GROUPS = gdb
debug:
	@test -n "$(DRIVER)" || { echo "make debug: say DRIVER=" \
		"(one of: $(ALL_DRIVERS))" >&2; exit 2; }
	@$(PREPARE)
	@scripts/debug --kernel $(KERNEL) $(if $(PORT),--port $(PORT)) \
		$(DRIVER) $(FORM)

vm: KERNELS = $(KERNEL)
ifneq ($(LAB),)
vm: DRIVERS = $(LAB_DRIVERS)
endif
vm:
	@$(if $(LAB),$(LAB_PREPARE),$(PREPARE))
	@$(if $(LAB),scripts/lab vm --kernel $(KERNEL) $(LAB), \
		scripts/vm --kernel $(KERNEL) \
		$(if $(CMD),--timeout 600,--timeout 86400) \
		$(if $(DRIVER),--load $(DRIVER):$(FORM))) \
		$(if $(CMD),-- sh -c "$$CMD")

# The labs (scripts/lab, TUTORIAL.md, docs/teachers.md): lab writes lab
# LAB's start into labs/LAB/ (yours: git ignores it); grade builds it for
# KERNEL (default 6.12), runs its driver's tests against it in a guest (or
# TEST, a name or a comma-separated list, or STEP, the tests of that step
# of the lab's: tests/lab-steps), and scores it, in KTAP and, with JUNIT, in
# a JUnit XML file too; its files go to build/labs/RELEASE/.  hint gives a
# hint for the lab's first step not passed (or STEP): its idea, then asked
# again its API (scripts/lab hint).
# grade-class grades DIR/STUDENT/ for each student, one VM each, JOBS at a
# time, into the gradebook CSV (default: in build/labs/RELEASE/class-LAB/,
# CLASS.csv, CLASS being DIR's path); handout writes a student's copy of the
# kit into DIR: the starts of LAB (default all), no answers, CI files in
# place.
LAB_DRIVERS = $(foreach l,$(LAB),$(shell scripts/lab driver $(l)))
NEED_LAB = @test -n "$(LAB)" || { echo "make $@: say LAB= (make lab" \
	"lists them)" >&2; exit 2; }

lab:
	@scripts/lab $(if $(LAB),start $(LAB))

grade: KERNELS = $(KERNEL)
grade: DRIVERS = $(LAB_DRIVERS)
grade:
	$(NEED_LAB)
	@$(LAB_PREPARE)
	@scripts/lab grade --kernel $(KERNEL) $(if $(TEST),--test $(TEST)) \
		$(if $(STEP),--step $(STEP)) $(if $(JUNIT),--junit $(JUNIT)) $(LAB)

hint:
	$(NEED_LAB)
	@scripts/lab hint $(if $(STEP),--step $(STEP)) $(LAB)

grade-class: KERNELS = $(KERNEL)
grade-class: DRIVERS = $(LAB_DRIVERS)
grade-class:
	$(NEED_LAB)
	@test -n "$(DIR)" || { echo "make grade-class: say DIR= (a" \
		"directory per student)" >&2; exit 2; }
	@$(LAB_PREPARE)
	@scripts/lab class --kernel $(KERNEL) $(if $(JOBS),--jobs $(JOBS)) \
		$(LAB) $(DIR) $(CSV)

handout:
	@test -n "$(DIR)" || { echo "make handout: say DIR=" >&2; exit 2; }
	@scripts/lab handout $(DIR) $(LAB)

kernels:
	@scripts/kernel list

# The compile database for clangd (scripts/compile-commands), from the build
# for KERNEL: 6.1 unless named, whose gen_compile_commands.py comes with
# checkpatch's linux-source-6.1 and reads 6.1's build only (the debug
# kernel's source, once fetched, has one that reads any kernel's).
compile_commands.json: KERNELS = $(if $(call given,KERNEL)$(call given,KERNELS),\
	$(KERNEL),6.1)
compile_commands.json: SETUP_GROUPS = lint
compile_commands.json:
	@$(SETUP) && scripts/kernel fetch $(KERNELS) && $(MAKE) -s modules
	@scripts/compile-commands $(KERNELS)

kernel-debug:
	@scripts/setup base kernel-build && scripts/kernel build

# What the debug kernel's tests run of each template, per driver and form
# (scripts/coverage): lines, branches and goto labels run, and every line
# never run with the reason (tests/coverage.reasons), from the counts that
# make check's debug lane (its suite and its fault lane) left in
# build/RELEASE/coverage/.  Without any, that lane runs first, for the
# hand-written forms only.  make site marks the lines on the drivers' pages.
coverage: KERNELS = debug
coverage: SHELL := /bin/bash
coverage:
	@$(PREPARE)
	@eval "$$(scripts/kernel debug)"; \
	if [ ! -d build/$$release/coverage ]; then \
		echo "coverage: running the debug kernel's suite and fault" \
			"lane first (build/check.ktap)"; \
		FORMS="legacy converted" scripts/check >/dev/null || \
			echo "coverage: the run had failures: build/check.ktap"; \
	fi; \
	$(LOCK) -s "coverage-$$release" \
		"the coverage counts in build/$$release" "reading them"; \
	scripts/coverage --json build/$$release/coverage.json \
		build/$$release/coverage

# The fault-injection lane alone (kit-run --faults, tests/kitfault.c) on the
# debug kernel, for DRIVERS; FAULTS=ENTRY,... narrows it to some entry
# points (kitfault DRIVER --list names them); KITFAULT_VERBOSE=1 logs each
# injected failure's stack in build/RELEASE/vm/faults.log.  Its coverage
# counts replace the fault lane's in build/RELEASE/coverage/ when it ends,
# under the lock that make check's copy takes (scripts/check), so that
# neither reads or writes the other's half-copied.
faults: KERNELS = debug
faults: SHELL := /bin/bash
faults:
	@$(PREPARE)
	@eval "$$(scripts/kernel debug)"; mkdir -p build/$$release/vm; \
	out=build/$$release/faults.$$$$; \
	KIT_VM_LOG=build/$$release/vm/faults.log KIT_VM_OUT=$$out \
	scripts/vm --kernel debug --timeout 7200 -- \
		env FAULTS="$(FAULTS)" KITFAULT_VERBOSE="$(KITFAULT_VERBOSE)" \
		kit-run --faults $(DRIVERS); \
	rc=$$?; [ -d $$out ] || exit $$rc; \
	$(LOCK) "coverage-$$release" "the coverage counts in build/$$release" \
		"replacing the fault lane's"; \
	rm -rf build/$$release/coverage/faults; \
	mkdir -p build/$$release/coverage; \
	mv $$out build/$$release/coverage/faults; exit $$rc

clean:
	rm -rf build

clean-kernels:
	@scripts/kernel clean
