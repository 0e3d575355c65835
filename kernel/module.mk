# SPDX-License-Identifier: MIT
# The kernel: portable core + arch + board, built once per board into a library that every
# boot image of that board links with its own program table (apps.S).
KERNEL_SRCS := kernel/main.c kernel/kinit.c kernel/klib.c kernel/sched.c kernel/thread.c kernel/ktimer.c \
               kernel/proc.c kernel/kview.c kernel/ipc.c kernel/kname.c kernel/sync.c kernel/irq.c kernel/utimer.c \
               kernel/pmem.c kernel/kcall.c kernel/shost.c kernel/kconsole.c kernel/ktrace.c kernel/ktrace_bench.c kernel/ktrace_state.c kernel/ktrace_ev.c kernel/ktrace_notes.c kernel/ktrace_sync.c kernel/klockstat.c \
               kernel/kdtrace.c kernel/kdt_fire.c kernel/kdt_uname.c kernel/kversion.c kernel/kdt_devinfo.c kernel/kdtrace_text.c kernel/kuring.c trace/trace_ring.c trace/kev_derived.c kernel/unwind.c kernel/unwind_read.c \
               kernel/kstack.c kernel/kfault_stack.c
# Stacks and faults in the trace (SYSTEM STACK / FAULT, docs/trace-events.md).
KERNEL_SRCS += kernel/ktrace_stack.c kernel/ktrace_fault.c
# What each process runs, with its build id (SYSTEM IMAGE): host tools find the ELF files by it.
KERNEL_SRCS += kernel/ktrace_image.c kernel/ktrace_probe.c
# The profile provider's timer work: samples, profile-N, tick-N (kernel/ptimer.h).
KERNEL_SRCS += kernel/kprof.c kernel/ptimer_none.c
# The load average, Solaris's avenrun, sampled once a second by the tick.
KERNEL_SRCS += kernel/kloadavg.c
# The kernel's own options from the boot command line (idle=poll).
KERNEL_SRCS += kernel/kopts.c
# Totals over the CPUs of their counters, for SysInfo.
KERNEL_SRCS += kernel/cpu_sum.c
# The flight recorder's map of the ring, for kevdump (tools/kevdump).
KERNEL_SRCS += kernel/kflight.c
# D's trigger actions and the incident record they leave in RAM no reset clears
# (docs/incidents.md): its writer and boot check, and the readers' one check of a record.
KERNEL_SRCS += kernel/kdt_trigger.c kernel/kincident.c trace/kev_incident.c trace/kev_crc32.c
# The kernel's data and bss as a range, where D's `name reads (kernel/kdtrace.c).
KERNEL_SRCS += kernel/kdata.c
# The panic path: the message and the stop, the halt in place in flight-recorder mode; and the
# tracing layer's recorder it calls, the KPANIC event.
KERNEL_SRCS += kernel/kpanic.c kernel/ktrace_panic.c
# Several CPUs (the one-CPU kernel has none of these: kernel/smp.h): the hook lockstat's
# spin probes hang on (kernel/klock.h klock_probe), a freed map taken back from the other
# CPUs' tables (kernel/kunmap.h), and the lock-order checker (make KLOCK_CHECK=1 builds it in).
KSMP_SRCS := kernel/klock.c kernel/kunmap.c $(if $(filter 1,$(KLOCK_CHECK)),kernel/klock_check.c)
KERNEL_SRCS += $(if $(filter-out 1,$(or $(BOARD_MAX_CPUS),1)),$(KSMP_SRCS))
# The fbt provider (docs/fbt.md): placing probes, and the trap, on the architectures that have
# its trap (ARCH_FBT_SRCS, arch.mk) and the boards whose kernel text is RAM (not
# BOARD_NO_FBT); elsewhere a stand-in that refuses fbt probes.
KFBT := $(if $(BOARD_NO_FBT),,$(ARCH_FBT_SRCS))
KERNEL_SRCS += $(if $(KFBT),kernel/kfbt.c kernel/kfbt_fire.c $(KFBT),kernel/kfbt_none.c)
KCFLAGS     += $(if $(KFBT),,-DKFBT_DISABLED)
# USDT probes (docs/usdt.md): placed where programs' text is RAM and the architecture has the
# trap (ARCH_USDT_SRCS); elsewhere refused.
KUSDT := $(if $(BOARD_NO_FBT),,$(ARCH_USDT_SRCS))
KERNEL_SRCS += $(if $(KUSDT),kernel/kusdt.c $(KUSDT) trace/d/dusdt.c trace/d/dusdt_note.c,kernel/kusdt_none.c)
# Files the boot loader hands the kernel (kernel/bootfile.h), where the arch's loader has them.
KERNEL_SRCS += $(if $(ARCH_BOOTFILES),kernel/bootfile.c,kernel/bootfile_none.c)
# pid probes (docs/pid.md): where USDT sites are placed (the same writer and fault path) and
# the architecture can run a function's first instruction out of line (ARCH_PID_SRCS).
KPID := $(if $(KUSDT),$(ARCH_PID_SRCS))
KERNEL_SRCS += $(if $(KPID),kernel/kpid.c $(KPID),kernel/kpid_none.c)
# The D engine the kernel runs (trace/d/module.mk's D_ENGINE_SRCS).
KERNEL_SRCS += trace/d/verify.c trace/d/vm.c trace/d/engine.c trace/d/agg.c trace/d/probes.c trace/d/dfbt.c \
               trace/d/stacks.c trace/d/devinfo.c
KERNEL_ALL  := $(KERNEL_SRCS) $(ARCH_SRCS) $(BOARD_SRCS)
KERNEL_OBJS := $(patsubst %,$(B)/obj/%.o,$(KERNEL_ALL))
BOARD_DEFS  := -DAPP_FLASH_BASE=$(APP_FLASH_BASE) -DAPP_FLASH_SLOT=$(APP_FLASH_SLOT) \
               -DAPP_RAM_BASE=$(APP_RAM_BASE) -DAPP_RAM_SLOT=$(APP_RAM_SLOT) \
               -DAPP_MAX_SLOTS=$(APP_MAX_SLOTS) -DKMAX_CPUS=$(or $(BOARD_MAX_CPUS),1) \
               $(if $(BOARD_CONSOLE_LINE),-DKCON_LINE=$(BOARD_CONSOLE_LINE))
# A board's larger limit on a compiled D program (kernel/kdtrace.c, KDT_OBJ_LIMIT).
$(B)/obj/kernel/kdtrace.c.o: KCFLAGS += $(if $(BOARD_KDT_OBJ_MAX),-DBOARD_KDT_OBJ_MAX=$(BOARD_KDT_OBJ_MAX))
$(B)/obj/kernel/kdtrace.c.o: boards/$(BOARD)/board.mk
# D's `utsname (kernel/kdt_uname.c): the board's names as its board_user.h gives them to the
# tracelogger's header (the kernel does not include that file, which is the programs').
board_user_str = $(shell sed -n 's/^\#define $(1) *\("[^"]*"\).*/\1/p' boards/$(BOARD)/board_user.h)
KDT_UNAME_OBJS := $(B)/obj/kernel/kdt_uname.c.o $(B)/obj-notrace/kernel/kdt_uname.c.o
$(KDT_UNAME_OBJS): KCFLAGS += -DKDT_BOARD_NAME='$(call board_user_str,BOARD_NAME_STR)' \
                             -DKDT_BOARD_ARCH='$(call board_user_str,BOARD_ARCH_STR)'
$(KDT_UNAME_OBJS): boards/$(BOARD)/board_user.h
KCFLAGS     += $(BOARD_DEFS) $(if $(filter 1,$(KLOCK_CHECK)),-DKLOCK_CHECK)
# The run-queue lock's contention counters (make KLOCK_STATS=1, build/<b>-klockstats; sched.c).
KCFLAGS     += $(if $(filter 1,$(KLOCK_STATS)),-DKLOCK_STATS)

$(B)/obj/%.c.o: %.c | $(KEV_EMIT_GEN_H)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

$(B)/obj/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

$(B)/kernel.a: $(KERNEL_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(CROSS)ar rcs $@ $^

# The same kernel with every trace hook compiled out: only the benchmarks use it, as the
# baseline that "tracing compiled in but off" is compared with.
KERNEL_NT_OBJS := $(patsubst %,$(B)/obj-notrace/%.o,$(KERNEL_ALL))
$(B)/obj-notrace/%.c.o: %.c | $(KEV_EMIT_GEN_H)
	@mkdir -p $(dir $@)
	@echo "  CC      $< (no trace hooks)"
	$(Q)$(CC) $(KCFLAGS) -DKTRACE_DISABLED -c $< -o $@

$(B)/obj-notrace/%.S.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(KCFLAGS) -DKTRACE_DISABLED -c $< -o $@

$(B)/kernel-notrace.a: $(KERNEL_NT_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(CROSS)ar rcs $@ $^

# The same kernel without the fbt provider: kfbt_none.c for kfbt.c, kfbt_fire.c and the
# architecture's part, and the sources with an fbt hook (ARCH_FBT_HOOKS: the kernel-fault
# path) built with -DKFBT_DISABLED. The baseline "fbt built in, no probe enabled" is held to,
# instruction for instruction (test/qemu/test_fbt_zero.sh, scripts/bench-fbt.sh; docs/fbt.md).
KERNEL_NF_SRCS := $(filter-out kernel/kfbt.c kernel/kfbt_fire.c $(ARCH_FBT_SRCS) $(ARCH_FBT_HOOKS),\
                      $(KERNEL_ALL)) $(if $(KFBT),kernel/kfbt_none.c)
KERNEL_NF_OBJS := $(patsubst %,$(B)/obj/%.o,$(KERNEL_NF_SRCS)) \
                  $(patsubst %,$(B)/obj-nofbt/%.o,$(ARCH_FBT_HOOKS))
$(B)/obj-nofbt/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $< (no fbt)"
	$(Q)$(CC) $(KCFLAGS) -DKFBT_DISABLED -c $< -o $@

$(B)/kernel-nofbt.a: $(KERNEL_NF_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(CROSS)ar rcs $@ $^

$(B)/kernel.ld: ldscripts/kernel.ld.S boards/$(BOARD)/board_config.h boards/$(BOARD)/board.mk
	@mkdir -p $(dir $@)
	$(Q)$(CC) -E -P -x c -Iboards/$(BOARD) $(BOARD_DEFS) $< -o $@
