# SPDX-License-Identifier: MIT
# Host dtrace front end: build/host/dtrace.
DTRACE_SRCS := tools/dtrace/dtrace.c tools/common/row_probes.c trace/d/row_probes.c tools/dtrace/kevreplay.c tools/dtrace/kevuname.c tools/dtrace/kevdevinfo.c tools/dtrace/kevreplay_stacks.c tools/dtrace/kevreplay_args.c tools/dtrace/kevreplay_table.c tools/dtrace/kevreplay_ctx.c trace/kev_derived.c tools/dtrace/kevtarget.c tools/dtrace/kevprogs.c tools/dtrace/kevkvar.c tools/dtrace/kevincident.c tools/dtrace/cmdproc.c tools/common/tool_file.c tools/common/tool_elfsym.c tools/common/tool_fbt.c tools/common/tool_usdt.c tools/common/fbt_thumb.c tools/common/fbt_a64.c tools/common/fbt_i386.c $(D_ALL_SRCS) \
               $(TRACE_HOST_SRCS)
# -i names its output's code addresses as stacksym does, from the ELF files the capture ran
# (found by build id: tools/common/tool_syms.c; libdwfl).
DTRACE_SRCS += tools/common/symfilter.c tools/common/symaddr.c tools/common/tool_elfsym.c \
               tools/common/tool_syms.c tools/common/tool_opts.c tools/common/tool_map.c
HOST_TOOLS  += $(H)/dtrace

$(H)/dtrace: $(call kevhost_objs,$(DTRACE_SRCS))
	@mkdir -p $(dir $@)
	@echo "  HOSTLD  $@"
	$(Q)$(HOST_CC) $^ -o $@ -ldw -lelf -lcapstone -lz

# Conformance suite (test/d) and the engine's unit tests.
TEST_DEPS_HOST    += $(H)/dtrace $(H)/kevgen
SCRIPT_TESTS_HOST += d-conformance|300|test/d/run-tests.sh
# Replays of a capture from several CPUs (kevscen4): `cpu`, per-CPU aggregations, -x cpu.
SCRIPT_TESTS_HOST += dtrace-cpus|120|test/tools/test_dtrace_cpus.sh
SCRIPT_TESTS_HOST += dtrace-aggpack-term|60|test/tools/test_dtrace_aggpack_term.sh
# -c / -p and $target, and the flags dtrace(1M) has (-Z -w -D -U -I -F -v -A, --help).
SCRIPT_TESTS_HOST += dtrace-target|60|test/tools/test_dtrace_target.sh
# A capture that lost events: dtrace -i says so, once, with the stream's own count.
SCRIPT_TESTS_HOST += dtrace-lost|60|test/tools/test_dtrace_lost.sh
SCRIPT_TESTS_HOST += dtrace-span|60|test/tools/test_dtrace_span.sh
# -i over a live source (a stream through a pipe, a file as it grows): the file's output, tick-1s
# printed while the stream arrives (about 10 s: a 3 s trace, its stream paced to 1.5 s).
TEST_DEPS_HOST    += $(H)/kevscen
SCRIPT_TESTS_HOST += dtrace-live|120|test/tools/test_dtrace_live.sh
# A variable first assigned 0 keeps a later 64-bit value: a per-call time total over a capture
# against the one traceprinter's events give (kcall_time_total.py).
SCRIPT_TESTS_HOST += dtrace-var64|60|test/tools/test_dtrace_var64.sh
# Declared self-> associative arrays: each thread's own counts and freed elements over two
# captures, against traceprinter's events (kcall_time_total.py --threads); under a second.
SCRIPT_TESTS_HOST += dtrace-selfassoc|60|test/tools/test_dtrace_selfassoc.sh
# curthread->t_cpu->cpu_disp->disp_nrunnable at every on-cpu of two captures against the
# ready threads traceprinter's events give (ready_count.py); a 4-CPU capture's one line. Under
# a second.
SCRIPT_TESTS_HOST += dtrace-nrunnable|60|test/tools/test_dtrace_nrunnable.sh
TEST_DEPS_HOST    += $(HT)/kevscen4
HOST_TESTS        += $(HT)/test_d_verify $(HT)/test_d_vm $(HT)/test_d_cc $(HT)/test_dcpp

$(HT)/test_d_verify: $(call host_test_objs,test/unit/test_d_verify.c $(D_ALL_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

$(HT)/test_d_vm: $(call host_test_objs,test/unit/test_d_vm.c $(D_ALL_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

$(HT)/test_d_cc: $(call host_test_objs,test/unit/test_d_cc.c $(D_ALL_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

# The compiler keeps to the stack room it is given (a board's dtrace: DTRACE_CC_STACK).
HOST_TESTS += $(HT)/test_d_ccstack
$(HT)/test_d_ccstack: $(call host_test_objs,test/unit/test_d_ccstack.c $(D_ALL_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka -lpthread $(HOST_TLDFLAGS)

# dtrace -i in a unit test (test/unit/dtrace_replay.c) and what the replay links.
DTRACE_REPLAY_TEST_SRCS := test/unit/dtrace_replay.c tools/dtrace/kevreplay.c tools/dtrace/kevuname.c \
                          tools/dtrace/kevdevinfo.c tools/dtrace/kevreplay_stacks.c tools/dtrace/kevreplay_args.c \
                          tools/dtrace/kevreplay_table.c tools/dtrace/kevreplay_ctx.c trace/kev_derived.c \
                          tools/common/kev_capture.c trace/trace_ring.c $(TRACE_HOST_SRCS) \
                          tools/common/kev_live.c tools/common/kev_input.c trace/kev_stream.c trace/kev_crc32.c trace/kev_wire.c tools/analysis/kx_fields.c \
                          tools/analysis/kx.c tools/analysis/kx_pass.c tools/analysis/kx_sort.c tools/analysis/kx_ids.c \
                          tools/common/tool_map.c tools/common/tool_file.c trace/kev_userreg.c $(D_ALL_SRCS)
# dtrace -i's user-event text over ring-written captures, a malformed one included.
HOST_TESTS += $(HT)/test_dtrace_ustr
$(HT)/test_dtrace_ustr: $(call host_test_objs,test/unit/test_dtrace_ustr.c $(DTRACE_REPLAY_TEST_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka -lz $(HOST_TLDFLAGS)

# The spawn rules' table (test/unit/spawn_cases.h) along dtrace -i's path, over a ring-written
# capture of each case's events; test_kdtrace holds the kernel's path to the same table.
HOST_TESTS += $(HT)/test_dtrace_spawn
$(HT)/test_dtrace_spawn: $(call host_test_objs,test/unit/test_dtrace_spawn.c $(DTRACE_REPLAY_TEST_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka -lz $(HOST_TLDFLAGS)

# The engine with firings on four CPUs at once (test_d_smp.c: per-CPU state, the dynamic
# variables' hash and reuse, the stack table), under ThreadSanitizer, which fails on any race.
HOST_TESTS += $(HT)/test_d_smp
$(HT)/test_d_smp: test/unit/test_d_smp.c $(D_ENGINE_SRCS) $(D_CC_SRCS) trace/d/datomic.h \
                  trace/d/dvm_impl.h trace/include/d/dvm.h
	@mkdir -p $(dir $@)
	@echo "  TSANCC  $@"
	$(Q)$(HOST_CC) -std=gnu11 -O1 -g $(HOST_WARN) -Itrace/include -Itools/include -Ikernel/include \
	    -fsanitize=thread -fno-omit-frame-pointer -o $@ $(filter %.c,$^) -pthread

$(HT)/test_dcpp: $(call host_test_objs,test/unit/test_dcpp.c trace/d/dcpp.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

# libFuzzer targets: the compiler (seeded with the conformance scripts) and verifier + VM.
FUZZ_BINS += $(FZ)/fuzz_d_compile $(FZ)/fuzz_d_vm
$(FZ)/fuzz_d_compile: test/fuzz/fuzz_d_compile.c $(D_ALL_SRCS) $(wildcard test/d/*.d)
	@mkdir -p $(dir $@) $(dir $@)seeds-fuzz_d_compile
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)
	$(Q)cp test/d/*.d $(dir $@)seeds-fuzz_d_compile/

$(FZ)/fuzz_d_vm: test/fuzz/fuzz_d_vm.c $(D_ALL_SRCS)
	@mkdir -p $(dir $@) $(dir $@)seeds-fuzz_d_vm
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)

# Host benchmark: ns per probe firing for the five cases of tools/dtrace/dbench_cases.h.
BENCH_DEPS += $(H)/dbench
BENCHES    += $(H)/dbench
$(H)/dbench: $(call host_objs,tools/dtrace/dbench.c $(D_ALL_SRCS))
	@mkdir -p $(dir $@)
	@echo "  HOSTLD  $@"
	$(Q)$(HOST_CC) $^ -o $@

# Bare-metal benchmark of the engine on the target CPU (QEMU, icount): instructions per firing
# over an empty hook, before the kernel integrates the engine. Its harness (linker script,
# semihosting exit, QEMU machine) is mps2-an385's: other boards skip it.
ifeq ($(BOARD),mps2-an385)
D_TBENCH := $(B)/d/dbench_target.elf
BENCH_DEPS += $(D_TBENCH)
BENCHES    += test/d/target/run-target-bench.sh|$(D_TBENCH)
$(D_TBENCH): test/d/target/dbench_target.c tools/dtrace/dbench_cases.h test/d/target/dbench.ld $(D_ALL_SRCS) \
             kernel/arch/armv7m/ehabi.c kernel/unwind.c
	@mkdir -p $(dir $@)
	@echo "  CC+LD   $@"
	$(Q)$(CC) $(ARCH_CFLAGS) -std=gnu11 -O2 -g $(TWARN) -ffreestanding -ffunction-sections \
	    -fdata-sections -Itools/dtrace -Itrace/include -Ikernel/include -Ikernel/arch/armv7m/include \
	    -nostartfiles --specs=nano.specs -T test/d/target/dbench.ld -Wl,--gc-sections \
	    $(filter %.c,$^) -o $@
endif
