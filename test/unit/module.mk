# SPDX-License-Identifier: MIT
# Host unit tests of the portable kernel code, against host stand-ins for the arch and board
# layers (kstub.c). One binary per test_<x>.c.
KUNIT_CORE := kernel/kinit.c kernel/sched.c kernel/thread.c kernel/ktimer.c kernel/proc.c kernel/kview.c kernel/ipc.c kernel/kname.c \
              kernel/sync.c kernel/irq.c kernel/utimer.c kernel/pmem.c kernel/klib.c \
              kernel/shost.c kernel/kconsole.c kernel/kcall.c kernel/ktrace.c kernel/ktrace_bench.c kernel/ktrace_state.c kernel/ktrace_ev.c kernel/ktrace_notes.c kernel/ktrace_panic.c kernel/ktrace_sync.c kernel/klockstat.c kernel/kdtrace.c kernel/kdt_fire.c kernel/kdt_trigger.c kernel/kincident.c trace/kev_incident.c trace/kev_crc32.c kernel/kdtrace_text.c kernel/kuring.c trace/trace_ring.c trace/kev_derived.c \
              kernel/kstack.c kernel/unwind.c kernel/ktrace_stack.c kernel/ktrace_image.c kernel/ktrace_probe.c kernel/kprof.c kernel/ptimer_none.c \
              trace/d/verify.c trace/d/vm.c trace/d/engine.c trace/d/agg.c trace/d/probes.c trace/d/dfbt.c trace/d/stacks.c \
              test/unit/kstub.c
KUNIT_CORE  += kernel/cpu_sum.c    # SysInfo's per-CPU totals (kcall.c)
KUNIT_CORE  += kernel/kversion.c   # and its build date
KUNIT_CORE  += kernel/kloadavg.c   # avenrun, sampled by the tick (kernel/main.c)
KUNIT_CORE  += kernel/kfbt_none.c  # the host has no fbt trap (kdtrace.c's KDT_GO asks it)
KUNIT_CORE  += kernel/kusdt_none.c # nor a USDT site's
KUNIT_CORE  += kernel/bootfile_none.c  # nor files from a boot loader (shost.c)
KUNIT_CORE  += kernel/kpid_none.c  # nor a pid probe's
KUNIT_TESTS := sched pmem ipc sync_timeout ktrace kdtrace shost

KUNIT_EXTRA_kdtrace := trace/d/lex.c trace/d/parse.c trace/d/decl.c trace/d/types.c trace/d/procinfo.c trace/d/ctypes.c $(D_CG_SRCS) trace/d/optval.c trace/d/subr_unsupported.c trace/d/symaddr.c   # the compiler
define KUNIT_template
$(HT)/test_$(1): $(call host_test_objs,test/unit/test_$(1).c $(KUNIT_CORE) $(KUNIT_EXTRA_$(1)))
	@echo "  TESTLD  $$@"
	$$(Q)$$(HOST_CC) $$(HOST_TLDFLAGS) -o $$@ $$^ -lcmocka
HOST_TESTS += $(HT)/test_$(1)
endef
$(foreach t,$(KUNIT_TESTS),$(eval $(call KUNIT_template,$(t))))

# The unwinders' walks (kernel/unwind.c, kernel/arch/armv7m/ehabi.c) over hand-made stacks.
$(HT)/test_unwind: $(call host_test_objs,test/unit/test_unwind.c kernel/unwind.c kernel/arch/armv7m/ehabi.c)
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka
$(HT)/obj/test/unit/test_unwind.o $(HT)/obj/kernel/arch/armv7m/ehabi.o: HOST_TCFLAGS += -Ikernel/arch/armv7m/include
HOST_TESTS += $(HT)/test_unwind

# The lock-order checker (kernel/klock_check.c) as a KLOCK_CHECK kernel with two CPUs has it,
# over host stand-ins for the arch's locks (test/unit/arch_klock.h, arch_cpu.h).
# The tests that link the kernel's locks without the D engine link the probe hook's home
# (kernel/klock.c), with no probe installed.
KLOCK_HOOK_OBJ := $(HT)/obj/klock_smp/klock.o
$(KLOCK_HOOK_OBJ): kernel/klock.c | $(KEV_EMIT_GEN_H)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_TCFLAGS) -DKMAX_CPUS=2 -c $< -o $@
KLOCK_TEST_OBJS := $(HT)/obj/klock/test_klock.o $(HT)/obj/klock/klock_check.o $(KLOCK_HOOK_OBJ)
$(HT)/obj/klock/test_klock.o: test/unit/test_klock.c | $(KEV_EMIT_GEN_H)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_TCFLAGS) -DKMAX_CPUS=2 -DKLOCK_CHECK -c $< -o $@
$(HT)/obj/klock/klock_check.o: kernel/klock_check.c | $(KEV_EMIT_GEN_H)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_TCFLAGS) -DKMAX_CPUS=2 -DKLOCK_CHECK -c $< -o $@
$(HT)/test_klock: $(KLOCK_TEST_OBJS)
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka
HOST_TESTS += $(HT)/test_klock

# The late tick's period arithmetic (kernel/include/kernel/tick_periods.h) against a simulated
# counter and tick timer.
$(HT)/test_tick_periods: $(call host_test_objs,test/unit/test_tick_periods.c)
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka
HOST_TESTS += $(HT)/test_tick_periods

# The scheduler on several CPUs (kernel/sched.c as a four-CPU kernel has it, over host
# stand-ins for the arch and tracing): the tick's round-robin IPIs (test_sched_smp.c) and the
# per-CPU run queues against the real-time rule (test_sched_smp_rt.c).
SCHED_SMP_OBJS := $(HT)/obj/sched_smp/test_sched_smp.o $(HT)/obj/sched_smp/test_sched_smp_rt.o \
                  $(HT)/obj/sched_smp/sched.o $(KLOCK_HOOK_OBJ)
$(HT)/obj/sched_smp/%.o: test/unit/%.c | $(KEV_EMIT_GEN_H)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_TCFLAGS) -DKMAX_CPUS=4 -c $< -o $@
$(HT)/obj/sched_smp/sched.o: kernel/sched.c | $(KEV_EMIT_GEN_H)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_TCFLAGS) -DKMAX_CPUS=4 -c $< -o $@
$(HT)/test_sched_smp: $(SCHED_SMP_OBJS)
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka
HOST_TESTS += $(HT)/test_sched_smp

# The kernel's tick on the shared side (kernel/ktimer.c as a two-CPU kernel has it): who takes
# a period, and a timeout armed on one CPU while another takes the period's tick, over a
# stand-in for the timer list's lock that lets the other CPU take it first
# (test/unit/ktimer_smp/arch_klock.h, found before test/unit's own).
KTIMER_SMP_OBJS := $(HT)/obj/ktimer_smp/test_ktimer_smp.o $(HT)/obj/ktimer_smp/ktimer.o $(KLOCK_HOOK_OBJ)
$(HT)/obj/ktimer_smp/test_ktimer_smp.o: test/unit/test_ktimer_smp.c | $(KEV_EMIT_GEN_H)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -Itest/unit/ktimer_smp $(HOST_TCFLAGS) -DKMAX_CPUS=2 -c $< -o $@
$(HT)/obj/ktimer_smp/ktimer.o: kernel/ktimer.c | $(KEV_EMIT_GEN_H)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -Itest/unit/ktimer_smp $(HOST_TCFLAGS) -DKMAX_CPUS=2 -c $< -o $@
$(HT)/test_ktimer_smp: $(KTIMER_SMP_OBJS)
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka
HOST_TESTS += $(HT)/test_ktimer_smp

# A USDT note's argument places in ARM's, AArch64's and i386's syntax (trace/d/dusdt.c).
$(HT)/test_dusdt: $(call host_test_objs,test/unit/test_dusdt.c trace/d/dusdt.c)
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka
HOST_TESTS += $(HT)/test_dusdt

# A program's USDT notes read from their bytes, as the kernel reads its images' (trace/d/dusdt_note.c):
# systemtap's layout with 4- and 8-byte addresses, other notes passed over, malformed ones refused.
$(HT)/test_dusdt_note: $(call host_test_objs,test/unit/test_dusdt_note.c trace/d/dusdt_note.c)
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka
HOST_TESTS += $(HT)/test_dusdt_note

# The i386 instructions a pid probe displaces (d/dpid_i386.h), against Capstone's decoder.
$(HT)/test_dpid_i386: $(call host_test_objs,test/unit/test_dpid_i386.c)
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka -lcapstone
HOST_TESTS += $(HT)/test_dpid_i386

# The Thumb instructions a pid probe displaces (d/dpid_thumb.h), against Capstone's decoder.
$(HT)/test_dpid_thumb: $(call host_test_objs,test/unit/test_dpid_thumb.c)
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka -lcapstone
HOST_TESTS += $(HT)/test_dpid_thumb

# Files from the boot loader (kernel/bootfile.c) through shost.c's semihosting calls.
$(HT)/test_bootfile: $(call host_test_objs,test/unit/test_bootfile.c $(filter-out kernel/bootfile_none.c,$(KUNIT_CORE)) kernel/bootfile.c)
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka
HOST_TESTS += $(HT)/test_bootfile
