# SPDX-License-Identifier: MIT
# Top-level build. Everything is built out of tree:
#   build/<board>/   kernel, user programs and boot images for one board
#   build/host/      host tools (optimised)
#   build/host-test/ host unit tests (ASan + UBSan)
# Modules add themselves through small fragments (*/module.mk) that append to the lists below,
# so that no two parts of the tree need to edit the same file.
#
#   make            image for the default board + host tools
#   make run        install what is missing, boot the demo system in QEMU (APPS="a b": your
#                   programs instead; make new-app NAME=a writes one; docs/applications.md)
#   make dtrace     a D program live on the board (S=file.d or D='clauses', APPS=...)
#   make test       install what is missing, run every test, print "N passed, M failed"
#   make bench      deterministic (-icount shift=0) benchmarks, "BENCH name value unit" lines
#   make debug      QEMU waiting for gdb-multiarch on :1234 (see .gdbinit)
#   make longrun    the live stream held for an hour on two boards, its counters checked
#   make clean
# Variables: BOARD=<name> (boards/<name>/), LIBC=picolibc|newlib, V=1 for full commands.

BOARD ?= mps2-an385
export BOARD      # scripts/qemu-run.sh boots images the way boards/$(BOARD)/qemu.sh says
ifeq ($(wildcard boards/$(BOARD)/board.mk),)
# (a board is a directory with a board.mk: boards/common holds what several share)
$(error no board '$(BOARD)': the boards are $(patsubst boards/%/board.mk,%,$(wildcard boards/*/board.mk)))
endif
include boards/$(BOARD)/board.mk
# The C library for programs: picolibc, newlib, or a board's own runtime (BOARD_LIBC_DEFAULT).
LIBC  ?= $(or $(BOARD_LIBC_DEFAULT),picolibc)
# Programs differ with the C library, so other libraries get a build directory of their own.
B     := build/$(BOARD)$(if $(filter-out picolibc $(BOARD_LIBC_DEFAULT),$(LIBC)),-$(LIBC))$(if $(filter 1,$(KLOCK_CHECK)),-klockcheck)$(if $(filter 1,$(KLOCK_STATS)),-klockstats)
H     := build/host
HT    := build/host-test
# The kernel's side of the event table, generated from its rows by the build (tools/emitgen).
KEV_EMIT_GEN_H := $(H)/gen/kev_emit_gen.h
# ... and the test-only row's alone (test/tools/test_event_row.c), for the tests that emit it
KEV_EMIT_GEN_ADDED_H := $(HT)/evrow/gen/kev_emit_gen_added.h

ifeq ($(V),1)
Q :=
else
Q := @
endif

.DEFAULT_GOAL := all

# ---- host toolchain --------------------------------------------------------------------------
HOST_CC      ?= gcc
HOST_WARN    := -Wall -Wextra -Werror -Wstrict-prototypes -Wmissing-prototypes -Wundef
# tools/include: the host library's public headers (<kevhost/...>, tools/module.mk)
HOST_CFLAGS  := -std=gnu11 -O2 -g $(HOST_WARN) -Itrace/include -Itools/include -Ikernel/include -MMD -MP
HOST_TCFLAGS := -std=gnu11 -O1 -g $(HOST_WARN) -Wno-missing-prototypes -Itrace/include -Itools/include \
                -Ikernel/include -Itest/unit -I$(H)/gen -MMD -MP -DHOST_TEST \
                -DKSTACK_GUARD=128u \
                -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all \
                -fno-pie
# -no-pie: kernel code keeps user addresses in 32 bits; the tests' buffers must lie below 4 GB.
# KSTACK_GUARD: a thread's stack guard on the host's stand-in arch (each arch.mk gives its own).
HOST_TLDFLAGS := -fsanitize=address,undefined -no-pie

# Lists the fragments append to.
HOST_TOOLS   :=   # host programs, built by `make`
HOST_TESTS   :=   # cmocka test binaries (TAP output), run by `make test`
SCRIPT_TESTS :=   # commands printing TAP lines, run by `make test` after the build
BENCHES      :=   # commands printing BENCH lines, run by `make bench`
FUZZ_BINS    :=   # libFuzzer binaries (clang), run by `make fuzz` for FUZZ_SECONDS each
FUZZ_SECONDS ?= 60
# FUZZ_RUNS=N: each fuzzer runs N executions instead (docs/hostile.md: 10M each, clean)
FUZZ_RUNS    ?=
# libFuzzer's per-input time limit (s) and memory limit (MB): generous, because on a shared
# machine a niced fuzzer can be stalled for seconds, and a stall is not a hang of the target.
FUZZ_TIMEOUT ?= 60
FUZZ_RSS_MB  ?= 2048
FUZZ_CC      ?= clang
# FUZZ_SAN: the sanitizers the fuzzers are built with. FUZZ_SAN=undefined (UBSan alone) runs
# fuzz_kevsql_sql 10 times faster, SQLite's allocations no longer ASan's (docs/hostile.md);
# each choice builds in a directory of its own, FZ.
FUZZ_SAN     ?= address,undefined
comma        := ,
FZ           := build/fuzz$(if $(filter address$(comma)undefined,$(FUZZ_SAN)),,-$(subst $(comma),-,$(FUZZ_SAN)))
# -fno-sanitize-recover=all: a fuzzer stops (and fails) at the first UBSan report, as ASan does.
FUZZ_CFLAGS  := -std=gnu11 -O1 -g -fsanitize=fuzzer,$(FUZZ_SAN) -fno-sanitize-recover=all \
                -Itrace/include -Itools/include \
                -Ikernel/include -Wall -Wextra -Werror -DHOST_TEST

# host_objs, host_test_objs: object paths for a list of C sources.
host_objs      = $(patsubst %.c,$(H)/obj/%.o,$(1))
host_test_objs = $(patsubst %.c,$(HT)/obj/%.o,$(1))

$(H)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $<"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -c $< -o $@

$(HT)/obj/%.o: %.c | $(KEV_EMIT_GEN_H)
	@mkdir -p $(dir $@)
	@echo "  TESTCC  $<"
	$(Q)$(HOST_CC) $(HOST_TCFLAGS) -c $< -o $@

# ---- target toolchain ------------------------------------------------------------------------
include kernel/arch/$(ARCH)/arch.mk

CROSS   ?= arm-none-eabi-
CC      := $(CROSS)gcc
OBJCOPY := $(CROSS)objcopy
SIZE    := $(CROSS)size
TWARN   := -Wall -Wextra -Werror -Wstrict-prototypes -Wmissing-prototypes -Wundef
KCFLAGS := $(ARCH_CFLAGS) -std=gnu11 -O2 -g $(TWARN) -ffreestanding -fno-common \
           -ffunction-sections -fdata-sections -Ikernel/include -Ikernel/arch/$(ARCH)/include \
           -Iboards/$(BOARD) -Itrace/include -I$(H)/gen -MMD -MP
# make SEMIHOST_DIR=dir: programs' host files only under dir (kernel/shost.c; rebuild the kernel)
KCFLAGS += $(if $(SEMIHOST_DIR),-DKSEMIHOST_ROOT='"$(SEMIHOST_DIR)"')

# ---- modules ---------------------------------------------------------------------------------
include kernel/module.mk
include user/module.mk
-include $(wildcard trace/module.mk trace/*/module.mk tools/module.mk tools/*/module.mk \
                    tracelogger/module.mk)
include test/module.mk

NPROC := $(shell nproc 2>/dev/null || echo 1)

# ---- top-level targets -----------------------------------------------------------------------
.PHONY: all run live test bench debug clean setup setup-test setup-bench images tools fuzz dtrace new-app
all: images tools
tools: $(HOST_TOOLS)
images: $(IMAGES_ELF)

setup:
	$(Q)scripts/setup.sh

setup-test:
	$(Q)scripts/setup.sh --test

setup-bench:
	$(Q)scripts/setup.sh --bench

# make run [APPS="a b"] [TL_OPTS=-w]: the demo system, or appinit with programs a and b
# (user/apps/a ...), captured to trace.kev and reported in trace.html (docs/applications.md).
run: setup
	$(Q)$(MAKE) --no-print-directory all
	$(Q)TRACE_STORAGE=$(or $(BOARD_TRACE_STORAGE),semihost) TL_OPTS="$(TL_OPTS)" \
	    $(if $(strip $(APPS)),RUN_ARGS="appinit $(strip $(APPS))") \
	    scripts/run-demo.sh $(B)/$(if $(strip $(APPS)),$(RUN_IMAGE),demo).elf \
	    $(H)/traceprinter $(H)/kevcapture $(H)/kevreport

# make live [APPS="a b"] [KEVTOP_OPTS=-b] [TL_OPTS="-x flush=50"] [LIVE_SECONDS=30]
# [LIVE_HOLD=SECONDS] [LIVE_PATH=probe|uart]: the demo system (or appinit with programs a and b)
# with its trace live in kevtop in the terminal, which also writes trace.kev, served to LTTng's
# viewers by kevlive and to a browser by kevweb as it grows (the babeltrace2 command and the
# page's address are said first; the page keeps the finished run until q, or LIVE_HOLD seconds).
# The path: the board's BOARD_LIVE_PATH (probe: kevprobe reads the kernel's buffers from the
# guest RAM QEMU shares with the host), else uart (the tracelogger's stream); docs/live.md.
# TL_OPTS="-F 1": the kernel keeps class 1 (kernel calls) out of the capture, as kevprobe
# advises when the board outruns it.
live: setup
	$(Q)$(MAKE) --no-print-directory all
	$(Q)BOARD=$(BOARD) TRACE_STORAGE=$(or $(BOARD_TRACE_STORAGE),semihost) TL_OPTS="$(TL_OPTS)" \
	    KEVTOP_OPTS="$(KEVTOP_OPTS)" $(if $(LIVE_SECONDS),LIVE_SECONDS=$(LIVE_SECONDS)) \
	    $(if $(LIVE_HOLD),LIVE_HOLD=$(LIVE_HOLD)) \
	    $(if $(LIVE_PATH),LIVE_PATH=$(LIVE_PATH)) \
	    $(if $(strip $(APPS)),RUN_ARGS="appinit $(strip $(APPS))") \
	    scripts/run-live.sh $(B)/$(if $(strip $(APPS)),$(RUN_IMAGE),demo).elf $(H)/kevtop $(H)/kevlive \
	    $(H)/kevweb

# make new-app NAME=<name>: a working, commented program in user/apps/<name>/ to start from.
new-app:
	$(Q)scripts/new-app.sh "$(NAME)"

# make test builds with a job per CPU and runs the tests TEST_JOBS at a time (default the CPUs;
# scripts/run-tests.sh, test/alone.list).
test: setup-test
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all test-build
	$(Q)scripts/run-tests.sh $(B)/tests.list

bench: setup-bench
	$(Q)$(MAKE) --no-print-directory all bench-build
	$(Q)scripts/run-bench.sh $(foreach b,$(BENCHES),'$(b)')

# make dtrace S=script.d | D='clauses' [APPS="a b"] [TARGET=b] [D_OPTS="-x bufsize=16k -q"]
# [ARGS="5 init"]: runs the D
# program live on the board in QEMU over the demo system, or over appinit and programs a, b
# (with a tracelogger capture to trace.kev in the same boot); $target is TARGET's pid, by
# default the first of APPS (docs/dtrace-target.md). docs/applications.md.
# as_typed NAME: variable NAME's text as the user typed it, quoted for the shell: never expanded
# by make ($target, $1 and $$ reach D as they do from an S= file) nor by the shell.
as_typed = '$(subst ','\'',$(value $(1)))'
dtrace: setup
	$(Q)$(if $(filter $(BOARD_NO_IMAGES),dtrace),echo "make dtrace: no dtrace image on $(BOARD): $(BOARD_NO_IMAGES_WHY)" >&2; exit 2)
	$(Q)$(MAKE) --no-print-directory all
	$(Q)B=$(B) H=$(H) S=$(call as_typed,S) D=$(call as_typed,D) D_OPTS=$(call as_typed,D_OPTS) ARGS=$(call as_typed,ARGS) APPS="$(strip $(APPS))" TARGET=$(call as_typed,TARGET) TL_OPTS="$(TL_OPTS)" \
	    TRACE_STORAGE=$(or $(BOARD_TRACE_STORAGE),semihost) BOARD_DTRACE_CMDLINE=$(BOARD_DTRACE_CMDLINE) \
	    scripts/run-dtrace.sh $(B)/$(if $(strip $(APPS)),$(DTRUN_IMAGE),dtrace).elf

debug: setup
	$(Q)$(MAKE) --no-print-directory all
	@echo "QEMU is waiting for a debugger on :1234. In another shell run:"
	@echo "    gdb-multiarch -x .gdbinit $(B)/demo.elf"
	$(Q)BOARD=$(BOARD) QEMU_TIMEOUT=0 scripts/qemu-run.sh $(B)/demo.elf -S -gdb tcp::1234

# make longrun [LONGRUN_SECONDS=3600]: the live stream held that long on mps2-an385, then on
# qemu-virt-a53, the demo in a loop and a reader that stops now and then; the counters checked
# at the end (scripts/longrun.sh). Not part of make test.
.PHONY: longrun
longrun: setup-test
	$(Q)$(MAKE) --no-print-directory BOARD=mps2-an385 all
	$(Q)$(MAKE) --no-print-directory BOARD=qemu-virt-a53 images
	$(Q)scripts/longrun.sh

fuzz: setup-test $(FUZZ_BINS)
	$(Q)for f in $(FUZZ_BINS); do mkdir -p $$f.corpus; \
	    echo "fuzz: $$f for $(if $(FUZZ_RUNS),$(FUZZ_RUNS) executions,$(FUZZ_SECONDS)s)"; \
	    dict=test/fuzz/$$(basename $$f).dict; [ -f $$dict ] && dict=-dict=$$dict || dict=; \
	    $$f $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_SECONDS)) -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=$(FUZZ_RSS_MB) \
	        -artifact_prefix=$$f- \
	        $$dict $$f.corpus $$(dirname $$f)/seeds-$$(basename $$f) \
	        >$$f.log 2>&1 || { tail -40 $$f.log; echo "fuzz: $$f FAILED (log: $$f.log)"; exit 1; }; \
	    grep -E '^#[0-9]+[[:space:]]+(DONE|pulse)' $$f.log | tail -1; grep '^Done' $$f.log; done

clean:
	rm -rf build

# Dependency files of the object directories this make builds in (obj/, obj-notrace/ ... of this
# board's, the host's and the fuzzers' build directories; not every board's, whose 2,000 files
# were most of a parse): D scripts are *.d too, so only object directories are searched.
-include $(shell find $(B) $(H) $(HT) $(FZ) -path '*/obj*/*' -name '*.d' 2>/dev/null)
