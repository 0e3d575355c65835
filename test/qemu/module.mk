# SPDX-License-Identifier: MIT
# QEMU integration tests: boot images (defined in user/module.mk) whose pid 1 prints TAP.
QEMU_TESTS     := ktest

# The hostile-process suite (docs/hostile.md), under -icount with no real-time sleeping, so
# that the victim's latency is the kernel's work and not the host's load.
HOSTILE_QEMU := -icount|shift=0,sleep=off
ifneq ($(filter hostile,$(IMAGES)),)
SCRIPT_TESTS += qemu/hostile|240|test/qemu/test_hostile.sh|$(B)/hostile.elf|$(HOSTILE_QEMU)
TEST_DEPS    += $(B)/hostile.elf
endif
QEMU_TESTS_ELF := $(patsubst %,$(B)/%.elf,$(QEMU_TESTS))

# Kernel benchmarks: deterministic instruction counts under -icount shift=0.
BENCHES    += scripts/bench-kernel.sh|$(B)
BENCH_DEPS += $(B)/kbench.elf $(B)/kbench_notrace.elf

# The demo system that `make run` boots, checked for what it reports.
SCRIPT_TESTS += qemu/demo|120|test/qemu/test_demo.sh|$(B)/demo.elf
TEST_DEPS    += $(B)/demo.elf

# The capture path: tracelogger, .kev on the host, kevcapture, loss accounting.
SCRIPT_TESTS += qemu/tracelogger|600|test/qemu/test_tracelogger.sh|$(B)|$(H)
TEST_DEPS    += $(B)/demo.elf $(B)/tflood.elf $(H)/traceprinter $(H)/kevcapture
BENCHES    += scripts/bench-logger.sh|$(B)
# The RTT transport through a stand-in probe on QEMU's gdbstub (docs/tracelogger.md).
SCRIPT_TESTS += qemu/rtt|180|test/qemu/test_rtt.sh|$(B)|$(H)
TEST_DEPS    += $(H)/kevrtt
# The live stream's board side: the flush interval and heartbeats on the guest clock, a reader
# that stops (XOFF through kevrelay, an RTT probe that stalls), -x rtt=block (docs/tracelogger.md).
# About 25 s: five short boots.
SCRIPT_TESTS += qemu/stream-live|180|test/qemu/test_stream_live.sh|$(B)|$(H)
TEST_DEPS    += $(H)/kevrelay
# make live with kevtop -b: frames while the system runs, the live file the board's byte for
# byte, the frames adding up to kevstat's CPU time (about 10 s: one boot of the demo, 3 s).
SCRIPT_TESTS += qemu/live|120|test/qemu/test_live.sh|$(B)|$(H)
# kevtop's interrupts a second per 10 ms of trace time against the programmed rates and
# traceprinter (about 3 s: one boot of the demo under QEMU_ICOUNT=exact).
SCRIPT_TESTS += qemu/kevtop-rates|60|test/qemu/test_kevtop_rates.sh|$(B)|$(H)
TEST_DEPS    += $(H)/kevtop $(H)/kevstat $(H)/traceprinter $(H)/kevlive $(H)/kev2ctf
# What the UART stream costs the board: the demo streamed live with the logger's defaults, its
# CPU from the trace's thread states at most 5% of the span, sent below the programs; the UART
# backed up, the logger waits for its transmit interrupt (about 25 s: two boots).
ifeq ($(BOARD),mps2-an385)
SCRIPT_TESTS += qemu/stream-cost|120|test/qemu/test_stream_cost.sh|$(B)|$(H)
TEST_DEPS    += $(B)/demo.elf $(H)/kevrelay $(H)/kevcapture $(H)/traceprinter $(H)/kevstat
# A device program: user/apps/uartnode owns UART 2 by interrupts on both its lines, its peer a
# script on the TCP socket QEMU_EXTRA gives the UART; its bytes each way the peer's, a refused
# line's console line the board's lines (docs/boards.md, "Devices for programs"; 5 s).
SCRIPT_TESTS += qemu/uart-node|90|test/qemu/test_uart_node.sh|$(B)|$(H)
TEST_DEPS    += $(B)/uartnodes.elf $(H)/traceprinter
endif
# make live's probe path (kevprobe through QEMU's gdbstub), exact mode: deadline's missed periods
# and lost pulses the same as without live, the kernel's counts in the live file, the board's
# copy byte for byte, halts that cost the guest nothing, a slow reader's loss and ring mode's, a
# wrong address (about 12 s on mps2-an385, 20 s on qemu-virt-a53: eight short boots).
BENCHES      += scripts/bench-probe.sh|$(B)|$(H)
BENCH_DEPS   += $(B)/livemark.elf $(B)/demo.elf $(H)/kevprobe $(H)/kevtop $(H)/kevstat
SCRIPT_TESTS += qemu/probe-live|240|test/qemu/test_probe_live.sh|$(B)|$(H)
# A reader stopped 1.5 s or reading at a slow probe's rate: the board loses counted events, not
# time (test_reader_away.sh).
SCRIPT_TESTS += qemu/reader-away|240|test/qemu/test_reader_away.sh|$(B)|$(H)
TEST_DEPS    += $(B)/deadlines.elf $(H)/kevprobe $(H)/kevtop $(H)/traceprinter
# What kevprobe's scan believes: an unprivileged program's forged block (its image and its RAM)
# is never taken; the live file equals the board's own copy (about 10 s: two boots).
SCRIPT_TESTS += qemu/probe-forge|120|test/qemu/test_probe_forge.sh|$(B)|$(H)
TEST_DEPS    += $(B)/probeforge.elf
# The kernel refuses a buffer's CPU byte a debugger set to 200 in ring mode: nothing written
# past the ring, the file's loss the kernel's count (about 10 s: one boot, halted every 10 ms).
SCRIPT_TESTS += qemu/ring-lies|120|test/qemu/test_ring_lies.sh|$(B)|$(H)
# kevlive with babeltrace2 attached live: events while the system runs, the board's file's events
# at the end, a reader's pause as discarded events (about 8 s: one boot of the demo, 5 s).
SCRIPT_TESTS += qemu/kevlive|120|test/qemu/test_kevlive.sh|$(B)|$(H)
TEST_DEPS    += $(H)/kevlive $(H)/kev2ctf $(H)/kevtop $(H)/traceprinter
# make live's web page in Chromium: it grows while the demo runs, ends with kevstat's CPU time
# per thread over the run's trace.kev and kevreport's page, a page that never reads stalling
# nothing (about 15 s).
SCRIPT_TESTS += qemu/live-web|120|test/qemu/test_live_web.sh|$(B)|$(H)
TEST_DEPS    += $(H)/kevweb $(H)/kevtop $(H)/kevstat $(H)/kevreport
# The live view's figures: event to screen (livemark), the live reader's rate, kevtop's CPU.
BENCHES      += scripts/bench-live.sh|$(B)|$(H)
BENCH_DEPS   += $(B)/livemark.elf $(H)/kevtop $(H)/kevcapture $(H)/kevgen $(H)/traceprinter
# Post-mortem: the ring of a hung system read by kevdump through QEMU's gdbstub.
SCRIPT_TESTS += qemu/flight|120|test/qemu/test_flight.sh|$(B)|$(H)
# Post-mortem after a forced kernel fault: the KPANIC event, the halt in place, kevdump.
SCRIPT_TESTS += qemu/kfault|120|test/qemu/test_kfault.sh|$(B)|$(H)
TEST_DEPS    += $(B)/flight.elf $(H)/kevdump $(H)/kevstat $(H)/kevreport $(H)/dtrace
# The incident record (docs/incidents.md): a D trigger's record kept across QMP's system_reset,
# written out by the next boot's logger and by kevdump -I; gdb over its core; damaged records.
# (a board without the dtrace image has no incident image: its triggers are D's)
ifeq ($(filter dtrace,$(BOARD_NO_IMAGES)),)
SCRIPT_TESTS += qemu/incident|180|test/qemu/test_incident.sh|$(B)|$(H)
TEST_DEPS    += $(B)/incident.elf $(H)/kevsql $(H)/traceprinter
# What a trigger's freeze and its record's write take (docs/incidents.md, PERFORMANCE.md).
BENCHES      += scripts/bench-incident.sh|$(B)
BENCH_DEPS   += $(B)/incident.elf
endif
# What watching costs: a BEGIN-only D program on the kernel's paths, a reader that is away
# (scripts/bench-watch.sh; docs/dtrace-target.md, docs/live.md).
BENCHES      += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,scripts/bench-watch.sh|$(B)|$(H))
BENCHES      += scripts/bench-rtt.sh|$(B)|$(H)
# The board's instructions per streamed event, UART and RTT, beside the file alone (the demo).
BENCHES      += scripts/bench-stream.sh|$(B)|$(H)
BENCH_DEPS   += $(B)/demo.elf $(H)/kevstat
# The compact stream's bytes an event over three captures (the demo, an interrupt-heavy one,
# qemu-virt-a53's messages across 4 CPUs: its image built by a make of its own).
ifeq ($(BOARD),mps2-an385)
BENCHES      += scripts/bench-wire.sh|$(B)|$(H)|build/qemu-virt-a53
BENCH_DEPS   += $(B)/irqtest.elf $(H)/kevwire wire-a53
.PHONY: wire-a53
wire-a53: | $(KEV_EMIT_GEN_H)
	$(Q)$(MAKE) --no-print-directory BOARD=qemu-virt-a53 build/qemu-virt-a53/msgpipetest.elf
endif
BENCH_DEPS   += $(B)/tflood.elf $(H)/kevrtt $(H)/kevcapture
BENCH_DEPS += $(B)/tflood.elf
# Several CPUs writing the trace at once (boards with more than one).
ifneq ($(filter-out 1,$(or $(BOARD_MAX_CPUS),1)),)
# The multiprocessor stress test (user/apps/smpstress) on every CPU, under -icount (the CPUs in
# turn) and on the host's clock (at once; a loaded host runs it for minutes, docs/smp.md
# "Tests": QEMU's own limit is the test's 600 s less 10, scripts/qemu-test.sh).
SCRIPT_TESTS += qemu/smpstress|300|test/qemu/test_smpstress.sh|$(B)/smpstress.elf|-icount|shift=0,sleep=off
SCRIPT_TESTS += qemu/smpstress-hostclock|600|env|QEMU_ICOUNT=none|test/qemu/test_smpstress.sh|$(B)/smpstress.elf
TEST_DEPS    += $(B)/smpstress.elf
# Every make run from here for another board or build waits for this one's host tools
# (`| tools`): build/host is shared, and two makes relinking fbtgen while a third ran it
# failed a build with "Permission denied".
# The same under -icount with the lock-order checker built in (make KLOCK_CHECK=1, kernel/klock.h),
# in a directory of its own: a lock taken out of rank order on any path the stress drives is a
# kernel panic, so the test passes only if none is.
ifneq ($(KLOCK_CHECK),1)
.PHONY: klockcheck-images
klockcheck-images: | tools $(KEV_EMIT_GEN_H)
	$(Q)$(MAKE) --no-print-directory KLOCK_CHECK=1 build/$(BOARD)-klockcheck/smpstress.elf
TEST_DEPS    += klockcheck-images
SCRIPT_TESTS += qemu/smpstress-klockcheck|300|test/qemu/test_smpstress.sh|build/$(BOARD)-klockcheck/smpstress.elf|-icount|shift=0,sleep=off
endif
BENCHES    += scripts/bench-smp.sh|$(B)|$(BOARD_MAX_CPUS)
BENCH_DEPS += $(B)/smpbench.elf
# QEMU's own ceiling on the host's clock, without our kernel: CNTVCT_EL0 reads and a control
# loop on 1 and 2 virtual CPUs of the virt machine (docs/smp.md, "QEMU's host-clock ceiling").
ifeq ($(BOARD),qemu-virt-a53)
BENCHES    += test/qemu/bare/cntvct_smp.sh
# QEMU's PMU under -icount counts every CPU's instructions, not each CPU's own: why the tools
# estimate a thread's executed share in exact mode (docs/analysis.md). No kernel; about 2 s.
SCRIPT_TESTS += qemu/pmu-smp|120|test/qemu/bare/pmu_smp.sh
endif
endif

# The same QEMU tests with newlib-nano (LIBC=newlib), built in a directory of their own
# (not on a board whose architecture has no newlib: BOARD_NO_NEWLIB in its board.mk).
ifeq ($(LIBC)$(BOARD_NO_NEWLIB),picolibc)
BNL := build/$(BOARD)-newlib
.PHONY: newlib-images
newlib-images: | tools $(KEV_EMIT_GEN_H)
	$(Q)$(MAKE) --no-print-directory LIBC=newlib images
TEST_DEPS    += newlib-images
SCRIPT_TESTS += qemu-newlib/ktest|120|scripts/qemu-test.sh|$(BNL)/ktest.elf
SCRIPT_TESTS += qemu-newlib/demo|120|test/qemu/test_demo.sh|$(BNL)/demo.elf
SCRIPT_TESTS += qemu-newlib/tracelogger|600|test/qemu/test_tracelogger.sh|$(BNL)|$(H)
# The printf family and the C99 headers with newlib (its printf the user runtime's: ufmt.h);
# one boot of a few seconds.
SCRIPT_TESTS += qemu-newlib/printf|120|test/qemu/test_printf.sh|$(BOARD)|$(BNL)
endif

# The board matrix: every other board with a boards/<b>/matrix.mk runs the QEMU tests it lists
# there (MATRIX_TESTS_<b> := ktest demo tracelogger hostile dtrace), built in its own directory.
# MATRIX_KTEST_ENV_<b>: what the board's ktest boots with besides (QEMU_ICOUNT=exact).
MATRIX_BOARDS := $(filter-out $(BOARD),$(patsubst boards/%/matrix.mk,%,$(wildcard boards/*/matrix.mk)))
define MATRIX_template
-include boards/$(1)/matrix.mk
.PHONY: matrix-images-$(1)
matrix-images-$(1): | tools $(KEV_EMIT_GEN_H)
	$$(Q)$$(MAKE) --no-print-directory BOARD=$(1) images tools
TEST_DEPS    += matrix-images-$(1)
SCRIPT_TESTS += $$(if $$(filter ktest,$$(MATRIX_TESTS_$(1))),qemu-$(1)/ktest|120|BOARD=$(1)|$$(if $$(MATRIX_KTEST_ENV_$(1)),$$(MATRIX_KTEST_ENV_$(1))|)scripts/qemu-test.sh|build/$(1)/ktest.elf)
SCRIPT_TESTS += $$(if $$(filter hostile,$$(MATRIX_TESTS_$(1))),qemu-$(1)/hostile|240|BOARD=$(1)|test/qemu/test_hostile.sh|build/$(1)/hostile.elf|$$(HOSTILE_QEMU))
SCRIPT_TESTS += $$(if $$(filter demo,$$(MATRIX_TESTS_$(1))),qemu-$(1)/demo|120|BOARD=$(1)|test/qemu/test_demo.sh|build/$(1)/demo.elf)
SCRIPT_TESTS += $$(if $$(filter tracelogger,$$(MATRIX_TESTS_$(1))),qemu-$(1)/tracelogger|600|BOARD=$(1)|test/qemu/test_tracelogger.sh|build/$(1)|$(H))
SCRIPT_TESTS += $$(if $$(filter flight,$$(MATRIX_TESTS_$(1))),qemu-$(1)/flight|120|BOARD=$(1)|test/qemu/test_flight.sh|build/$(1)|$(H))
SCRIPT_TESTS += $$(if $$(filter flight,$$(MATRIX_TESTS_$(1))),qemu-$(1)/kfault|120|BOARD=$(1)|test/qemu/test_kfault.sh|build/$(1)|$(H))
SCRIPT_TESTS += $$(if $$(filter incident,$$(MATRIX_TESTS_$(1))),qemu-$(1)/incident|180|BOARD=$(1)|test/qemu/test_incident.sh|build/$(1)|$(H))
SCRIPT_TESTS += $$(if $$(filter rtt,$$(MATRIX_TESTS_$(1))),qemu-$(1)/rtt|180|BOARD=$(1)|test/qemu/test_rtt.sh|build/$(1)|$(H))
SCRIPT_TESTS += $$(if $$(filter stream,$$(MATRIX_TESTS_$(1))),qemu-$(1)/stream-live|180|BOARD=$(1)|test/qemu/test_stream_live.sh|build/$(1)|$(H))
SCRIPT_TESTS += $$(if $$(filter live,$$(MATRIX_TESTS_$(1))),qemu-$(1)/live|120|BOARD=$(1)|test/qemu/test_live.sh|build/$(1)|$(H))
SCRIPT_TESTS += $$(if $$(filter probe-live,$$(MATRIX_TESTS_$(1))),qemu-$(1)/probe-live|240|BOARD=$(1)|test/qemu/test_probe_live.sh|build/$(1)|$(H))
SCRIPT_TESTS += $$(if $$(filter probe-live,$$(MATRIX_TESTS_$(1))),qemu-$(1)/reader-away|240|BOARD=$(1)|test/qemu/test_reader_away.sh|build/$(1)|$(H))
SCRIPT_TESTS += $$(if $$(filter probe-forge,$$(MATRIX_TESTS_$(1))),qemu-$(1)/probe-forge|120|BOARD=$(1)|test/qemu/test_probe_forge.sh|build/$(1)|$(H))
SCRIPT_TESTS += $$(if $$(filter ring-lies,$$(MATRIX_TESTS_$(1))),qemu-$(1)/ring-lies|120|BOARD=$(1)|test/qemu/test_ring_lies.sh|build/$(1)|$(H))
# (the reader that stops alone, about 8 s: the board's trace UART receive line and XON/XOFF)
SCRIPT_TESTS += $$(if $$(filter stream-stop,$$(MATRIX_TESTS_$(1))),qemu-$(1)/stream-stop|120|BOARD=$(1)|test/qemu/test_stream_live.sh|build/$(1)|$(H)|stop)
SCRIPT_TESTS += $$(if $$(filter dtrace,$$(MATRIX_TESTS_$(1))),qemu-$(1)/dtrace|900|BOARD=$(1)|test/qemu/test_dtrace.sh|build/$(1)|$(H))
# period: an application keeps its period with the tracelogger writing (test_period.sh).
SCRIPT_TESTS += $$(if $$(filter period,$$(MATRIX_TESTS_$(1))),qemu-$(1)/period|180|BOARD=$(1)|test/qemu/test_period.sh|build/$(1)|$(H))
TEST_DEPS    += $$(if $$(filter period,$$(MATRIX_TESTS_$(1))),$(H)/kevsql)
SCRIPT_TESTS += $$(if $$(filter parity,$$(MATRIX_TESTS_$(1))),qemu-$(1)/parity|300|BOARD=$(1)|test/qemu/test_dprobe_parity.sh|build/$(1)|$(H))
# acqparity: the parity corpus over acq (as qemu-acqparity/<board> below), on a board that runs
# it from the matrix (x86-pc: the D text on the boot command line, the capture from COM2).
SCRIPT_TESTS += $$(if $$(filter acqparity,$$(MATRIX_TESTS_$(1))),qemu-acqparity/$(1)|300|BOARD=$(1)|test/qemu/test_dprobe_parity.sh|build/$(1)|$(H)|acq)
SCRIPT_TESTS += $$(if $$(filter smpstress,$$(MATRIX_TESTS_$(1))),qemu-$(1)/smpstress|300|BOARD=$(1)|test/qemu/test_smpstress.sh|build/$(1)/smpstress.elf|$$(HOSTILE_QEMU))
# uslots: per-thread user-event rings reused after their thread ended (test_uring_slots.sh).
SCRIPT_TESTS += $$(if $$(filter uslots,$$(MATRIX_TESTS_$(1))),qemu-$(1)/uslots|180|BOARD=$(1)|test/qemu/test_uring_slots.sh|build/$(1)|$(H))
SCRIPT_TESTS += $$(if $$(filter smpstress,$$(MATRIX_TESTS_$(1))),qemu-$(1)/smpstress-hostclock|600|env|QEMU_ICOUNT=none|BOARD=$(1)|test/qemu/test_smpstress.sh|build/$(1)/smpstress.elf)
# sync-apps: the inversion and deadlock programs with 4 CPUs online (QEMU_SMP=4), the
# inversion's threads bound to one CPU by the program itself (test_sync_apps.sh).
SCRIPT_TESTS += $$(if $$(filter sync-apps,$$(MATRIX_TESTS_$(1))),qemu-$(1)/sync-apps|120|BOARD=$(1)|QEMU_SMP=4|test/qemu/test_sync_apps.sh|build/$(1)|$(H))
# pi-cpus: priority inheritance across CPUs in a capture (user/apps/picross, test_pi_cpus.sh).
SCRIPT_TESTS += $$(if $$(filter smpstress,$$(MATRIX_TESTS_$(1))),qemu-$(1)/pi-cpus|120|BOARD=$(1)|QEMU_SMP=4|test/qemu/test_pi_cpus.sh|build/$(1)|$(H))
# ipi-trace: the reschedule IPIs in a capture of the demo on every CPU, each idle CPU's wake-up
# by another shown with what woke it (test_ipi_trace.sh).
SCRIPT_TESTS += $$(if $$(filter smpstress,$$(MATRIX_TESTS_$(1))),qemu-$(1)/ipi-trace|120|BOARD=$(1)|test/qemu/test_ipi_trace.sh|build/$(1)|$(H))
# cpuwake: CondBroadcast named, condvar waits by their signaller, cross-CPU wake-ups named as
# such, migrations in the CTF, against the program's own counts (test_cpuwake.sh).
SCRIPT_TESTS += $$(if $$(filter smpstress,$$(MATRIX_TESTS_$(1))),qemu-$(1)/cpuwake|150|BOARD=$(1)|QEMU_SMP=4|test/qemu/test_cpuwake.sh|build/$(1)|$(H))
# fanout: a D program on every CPU's sched and kernel-call probes leaves a program's deadline
# misses as they were, against its own clock (test_fanout.sh: two exact-mode boots, about 1 min).
SCRIPT_TESTS += $$(if $$(filter smpstress,$$(MATRIX_TESTS_$(1))),qemu-$(1)/fanout|300|BOARD=$(1)|QEMU_SMP=4|test/qemu/test_fanout.sh|build/$(1)|$(H))
# exechog: CPU time with the CPUs run in turn: no reader shows an executed estimate, the
# RUNNING time agrees with the hog's own clock (test_exechog.sh).
SCRIPT_TESTS += $$(if $$(filter smpstress,$$(MATRIX_TESTS_$(1))),qemu-$(1)/exechog|300|BOARD=$(1)|QEMU_SMP=4|test/qemu/test_exechog.sh|build/$(1)|$(H))
# kevweb-whole: kevweb over finished captures on every CPU (make run's demo, msgpipe): every
# event, no fault, kevstat's late verdicts, msgpipe's timeline readable (test_kevweb_whole.sh).
SCRIPT_TESTS += $$(if $$(filter smpstress,$$(MATRIX_TESTS_$(1))),qemu-$(1)/kevweb-whole|480|BOARD=$(1)|test/qemu/test_kevweb_whole.sh|build/$(1)|$(H))
# console-cpus: the console's calls on 4 CPUs at once, every line whole (test_console_cpus.sh).
SCRIPT_TESTS += $$(if $$(filter smpstress,$$(MATRIX_TESTS_$(1))),qemu-$(1)/console-cpus|180|BOARD=$(1)|test/qemu/test_console_cpus.sh|build/$(1))
# (the stress on a kernel built with the lock-order checker: qemu/smpstress-klockcheck above)
.PHONY: matrix-klockcheck-$(1)
matrix-klockcheck-$(1): | tools $(KEV_EMIT_GEN_H)
	$$(Q)$$(MAKE) --no-print-directory BOARD=$(1) KLOCK_CHECK=1 build/$(1)-klockcheck/smpstress.elf build/$(1)-klockcheck/demo.elf
TEST_DEPS    += $$(if $$(filter smpstress,$$(MATRIX_TESTS_$(1))),matrix-klockcheck-$(1))
SCRIPT_TESTS += $$(if $$(filter smpstress,$$(MATRIX_TESTS_$(1))),qemu-$(1)/smpstress-klockcheck|300|BOARD=$(1)|test/qemu/test_smpstress.sh|build/$(1)-klockcheck/smpstress.elf|$$(HOSTILE_QEMU))
# The demo traced by the tracelogger on the same kernel: the shared side's traced exits (a
# buffer's high-water notification, the exclusive side's to deliver: kernel/ktrace.h) and the
# reschedule IPIs' shared entries (a panic when exclusive work runs in a shared entry).
SCRIPT_TESTS += $$(if $$(filter smpstress,$$(MATRIX_TESTS_$(1))),qemu-$(1)/demo-klockcheck|120|BOARD=$(1)|test/qemu/test_demo.sh|build/$(1)-klockcheck/demo.elf)
endef
$(foreach b,$(MATRIX_BOARDS),$(eval $(call MATRIX_template,$(b))))

# D on the target: make dtrace's path (dcompile on the host, the kernel's D provider, the
# target's dtrace consumer) over the demo system. Not on a board without the dtrace image
# (BOARD_NO_IMAGES in its user.mk: netduinoplus2), whose test-build then skips it.
ifneq ($(filter dtrace,$(IMAGES)),)
# (one boot per test/d program over the kernel: minutes, more on a loaded machine)
SCRIPT_TESTS += qemu/dtrace|900|test/qemu/test_dtrace.sh|$(B)|$(H)
TEST_DEPS    += $(B)/dtrace.elf $(H)/dcompile
endif

# One semantics, two places: D scripts live on the board and over the same boot's capture
# (test/qemu/parity/, docs/d-probes.md).
ifneq ($(filter dtparity,$(IMAGES)),)
SCRIPT_TESTS += qemu/parity|300|test/qemu/test_dprobe_parity.sh|$(B)|$(H)
TEST_DEPS    += $(B)/dtparity.elf $(H)/dcompile $(H)/dtrace
endif
# A row's own D probe, in no probe list, fired live (the kevrowlive image's kernel alone has
# the test-only row and its site) and over that boot's capture: one boot, a few seconds.
ifneq ($(filter kevrowlive,$(IMAGES)),)
SCRIPT_TESTS += qemu/kevrow-live|120|test/qemu/test_kevrow_live.sh|$(B)|$(H)|$(HT)
TEST_DEPS    += $(B)/kevrowlive.elf $(H)/dcompile $(H)/dtrace $(HT)/evrow/dcompile $(HT)/evrow/dtrace \
                $(HT)/evrow/traceprinter
# An event added as docs/adding-an-event.md says, in a scratch copy of the tree (this build's
# objects in it): a made-up row and its site, the files counted, every reader, dtrace -l, live
# and over the capture. Most of its time is the scratch build (make, in the copy).
SCRIPT_TESTS += qemu/event-add|300|test/qemu/test_event_add.sh|$(B)|$(H)
TEST_DEPS    += $(addprefix $(H)/,kevtable traceprinter kev2ctf kev2json kev2perfetto dtrace dcompile \
                emitgen)
# A thread state added whose change fires derived sched probes, the same way: its row, its line
# of the derived probes' rules and its site, the files counted, live and over the capture.
SCRIPT_TESTS += qemu/event-add-sched|300|test/qemu/test_event_add_sched.sh|$(B)|$(H)
endif
# The same over acq (user/apps/acq: a mutex, a semaphore, an inversion, a 1 kHz device), where
# no script may be empty and acq's own report and its device's rate are truths besides.
ACQPARITY_BOARDS := mps2-an385 qemu-virt-a53
ifneq ($(filter acqparity,$(IMAGES)),)
SCRIPT_TESTS += $(foreach b,$(ACQPARITY_BOARDS),qemu-acqparity/$(b)|300|BOARD=$(b)|test/qemu/test_dprobe_parity.sh|build/$(b)|$(H)|acq)
TEST_DEPS    += $(B)/acqparity.elf $(H)/dcompile $(H)/dtrace $(H)/kevstat
endif

# Your own program on every board of the matrix (docs/applications.md): make new-app, make run
# APPS=, make dtrace APPS= (or the board's clear no), dtrace -i at the board's times, exit 1 on
# a truncated file, and no silent hang when a start of tracing fails with EPERM.
APPS_TEST_BOARDS := $(patsubst boards/%/matrix.mk,%,$(wildcard boards/*/matrix.mk))
SCRIPT_TESTS += $(foreach b,$(APPS_TEST_BOARDS),qemu-apps/$(b)|900|test/qemu/test_apps.sh|$(b)|$(H))
TEST_DEPS    += $(H)/traceprinter $(H)/dtrace $(H)/kevcapture $(H)/kevreport $(H)/dcompile
# Programs that find each other by name (name_attach, name_open), made by make new-app and
# given their parts by ARGS, on every board of the matrix.
SCRIPT_TESTS += $(foreach b,$(APPS_TEST_BOARDS),qemu-names/$(b)|600|test/qemu/test_names.sh|$(b)|$(H))
# The printf family and the C99 headers a program includes on every board against the host's
# (user/apps/pfcheck; one boot of a few seconds each).
SCRIPT_TESTS += $(foreach b,$(APPS_TEST_BOARDS),qemu-printf/$(b)|120|test/qemu/test_printf.sh|$(b))
# Stacks (docs/hostile.md, docs/applications.md): unbounded recursion in a program's main thread,
# in a thread on a KSTACK stack and in one on an allocated stack is said as a stack overflow, its
# data untouched (user/apps/stackover); threads on plain 4 KB arrays, and 4 KB of locals in main
# with printf of doubles on the defaults (user/apps/qnxthreads, fplocals). Two boots each, a few
# seconds.
SCRIPT_TESTS += $(foreach b,$(APPS_TEST_BOARDS),qemu-stack-guard/$(b)|120|BOARD=$(b)|test/qemu/test_stack_guard.sh|build/$(b)|$(H))
TEST_DEPS    += $(B)/stackguard.elf $(B)/stackplain.elf $(H)/traceprinter $(H)/kevcapture
# ClockCycles() read in user mode against the kernel's clock, and its kernel calls in a capture.
SCRIPT_TESTS += $(foreach b,$(APPS_TEST_BOARDS),qemu-cycles/$(b)|180|test/qemu/test_cycles.sh|$(b)|$(H))
# How images place their programs, and the messages when they do not fit (host only).
SCRIPT_TESTS_HOST += build/place-apps|120|test/qemu/test_place_apps.sh
# The build check of the AArch64 user-event inserts' size (scripts/check-uring-text.sh; host only).
SCRIPT_TESTS_HOST += build/uring-text-check|60|test/qemu/test_uring_text_check.sh

# Every device interrupt once, at the rate its device was programmed at, read from the capture
# (docs/interrupts.md). netduinoplus2, whose device timer keeps no rate in QEMU, instead raises
# a level line at the pace of a kernel timer (user/apps/irqpace, the irqpacetest image).
IRQRATE_BOARDS := mps2-an385 qemu-virt-a53 x86-pc raspi3b netduinoplus2
SCRIPT_TESTS += $(foreach b,$(IRQRATE_BOARDS),qemu-irqrate/$(b)|180|test/qemu/test_irqrate.sh|$(b)|$(H))
TEST_DEPS    += $(B)/irqtest.elf $(H)/traceprinter $(H)/kevcapture $(H)/kevstat $(H)/kevsql
TEST_DEPS    += $(if $(BOARD_SWLINE_WINDOW),$(B)/irqpacetest.elf)
# The real application, acq (docs/applications.md): its report, the capture's interrupt rate,
# and its priority inversion in the scheduler's events.
ACQ_TEST_BOARDS := mps2-an385 qemu-virt-a53
SCRIPT_TESTS += $(foreach b,$(ACQ_TEST_BOARDS),qemu-acq/$(b)|240|test/qemu/test_acq.sh|$(b)|$(H))
TEST_DEPS    += $(B)/acqtest.elf $(H)/kevstat $(H)/kevsql
# Who blocked whom, how long, and why a priority changed: user/apps/auditor's own counts of its
# consumer's waits and its client's messages against kevstat, kevsql and the report read in
# Chromium (test_auditor.sh; qemu-virt-a53 with its 4 CPUs, the program on CPU 0).
AUDITOR_BOARDS := mps2-an385 qemu-virt-a53
SCRIPT_TESTS += $(foreach b,$(AUDITOR_BOARDS),qemu-auditor/$(b)|300|BOARD=$(b)|test/qemu/test_auditor.sh|build/$(b)|$(H))
TEST_DEPS    += $(B)/auditortest.elf $(H)/kevstat $(H)/kevsql $(H)/kevreport
TEST_DEPS    += $(foreach b,$(filter-out $(BOARD),$(AUDITOR_BOARDS)),matrix-images-$(b))
# Task instances and wait chains on a real capture: user/apps/cadence's own measure of its jobs
# (their release, end and misses) and relay's of its waits (client -> server -> mutex -> holder)
# against kevstat, kevsql and the report read in Chromium (test_tasks.sh: one boot a board serves
# every check, about 15 s each on an idle machine).
TASKS_BOARDS := mps2-an385 qemu-virt-a53
SCRIPT_TESTS += $(foreach b,$(TASKS_BOARDS),qemu-tasks/$(b)|120|BOARD=$(b)|test/qemu/test_tasks.sh|build/$(b)|$(H))
TEST_DEPS    += $(B)/tasktest.elf $(H)/kevstat $(H)/kevsql $(H)/kevreport
TEST_DEPS    += $(foreach b,$(filter-out $(BOARD),$(TASKS_BOARDS)),matrix-images-$(b))
# Task instances where the system misbehaves: user/apps/taskedge's own measure and count of a
# periodic thread that loses timer pulses, one that exits after its last job and a server
# released by messages, against kevstat, kevsql and the report read in Chromium
# (test_taskedge.sh: one boot a board serves every check, about 15 s each on an idle machine).
TASKEDGE_BOARDS := mps2-an385 qemu-virt-a53
SCRIPT_TESTS += $(foreach b,$(TASKEDGE_BOARDS),qemu-taskedge/$(b)|120|BOARD=$(b)|test/qemu/test_taskedge.sh|build/$(b)|$(H))
# Task classes from the design: deadline's timer-released loop (its misses, the last job judged)
# beside irqrate's interrupt-driven driver (no deadline), and a capture that lost events (no tick
# warning blaming the target, misses "at least"), in kevstat, kevsql, the report and kevweb
# (test_task_class.sh: two boots, about 20 s on an idle machine).
SCRIPT_TESTS += qemu-task-class/mps2-an385|150|BOARD=mps2-an385|test/qemu/test_task_class.sh|build/mps2-an385|$(H)
TEST_DEPS    += $(if $(filter mps2-an385,$(BOARD)),$(B)/taskclass.elf,matrix-images-mps2-an385)
TEST_DEPS    += $(H)/kevstat $(H)/kevsql $(H)/kevreport $(H)/kevweb
TEST_DEPS    += $(B)/edgetest.elf $(H)/kevstat $(H)/kevsql $(H)/kevreport
TEST_DEPS    += $(foreach b,$(filter-out $(BOARD),$(TASKEDGE_BOARDS)),matrix-images-$(b))
# CPU time by priority when a thread changes its own while it runs (its call, pulses it
# receives): user/apps/prioself's own clock at each priority against kevstat's split, text and
# JSON, and the report's (test_prio_split.sh: one boot of about 2 s a board).
PRIO_SPLIT_BOARDS := mps2-an385 qemu-virt-a53
SCRIPT_TESTS += $(foreach b,$(PRIO_SPLIT_BOARDS),qemu-prio-split/$(b)|60|BOARD=$(b)|test/qemu/test_prio_split.sh|build/$(b)|$(H))
TEST_DEPS    += $(B)/priotest.elf $(H)/kevstat $(H)/kevreport
TEST_DEPS    += $(foreach b,$(filter-out $(BOARD),$(PRIO_SPLIT_BOARDS)),matrix-images-$(b))
# Lost timer pulses as TIMER_LOST events: user/apps/pulselost's own count of the pulses its
# timer lost against the capture's events in every reader (test_pulse_lost.sh: one boot, ~3 s).
ifneq ($(filter pulselosttest,$(IMAGES)),)
SCRIPT_TESTS += qemu/pulse-lost|60|test/qemu/test_pulse_lost.sh|$(B)|$(H)
TEST_DEPS    += $(B)/pulselosttest.elf $(H)/kevtable $(H)/traceprinter $(H)/kevstat $(H)/kev2json $(H)/kev2ctf
endif
# make dtrace S=script.d on the boards that run dtrace: a script's lines and #pragma options
# reach the board intact (x86-pc carries the text on its boot command line), with DTrace's
# option syntax.
DSCRIPT_BOARDS := mps2-an385 qemu-virt-a53 x86-pc
SCRIPT_TESTS += $(foreach b,$(DSCRIPT_BOARDS),qemu-dscript/$(b)|420|test/qemu/test_dtrace_script.sh|$(b)|$(H))
TEST_DEPS    += $(H)/dcompile $(foreach b,$(filter-out $(BOARD),$(DSCRIPT_BOARDS)),matrix-images-$(b))
# Who blocked whom on a real capture: user/apps/inversion and user/apps/deadlock under the
# tracelogger, kevstat's findings against what the programs print (docs/waits.md).
ifneq ($(filter syncapps,$(IMAGES)),)
SCRIPT_TESTS += qemu/sync-apps|120|test/qemu/test_sync_apps.sh|$(B)|$(H)
TEST_DEPS    += $(B)/syncapps.elf $(H)/kevstat $(H)/kevsql
endif
# D reads a string user event's text (docs/d-probes.md): user/apps/ustr's trace_logf texts,
# live on the board and over the same boot's capture, against what ustr prints.
USTR_BOARDS := mps2-an385 qemu-virt-a53
SCRIPT_TESTS += $(foreach b,$(USTR_BOARDS),qemu-ustr/$(b)|300|test/qemu/test_dtrace_ustr.sh|$(b)|$(H))
TEST_DEPS    += $(H)/dcompile $(H)/dtrace
# pid globs (docs/pid.md): what a glob places and leaves out against readelf's functions of the
# demo's client; a.out for the target's program; one function that cannot be placed an error;
# past the kernel's 1024 sites, 1024 of the image's programs' own lists. Host only, under 1 s.
ifneq ($(filter dtrace,$(IMAGES)),)
SCRIPT_TESTS += qemu/pid-glob|60|test/qemu/test_pid_glob.sh|$(B)|$(H)
TEST_DEPS    += $(B)/dtrace.elf $(H)/dtrace
endif
# D's errno at kercall:::return (docs/d-probes.md): user/apps/kcerr's failing calls, live on
# the board and over the same boot's capture, against the errnos kcerr says it got.
SCRIPT_TESTS += qemu-errno/mps2-an385|300|test/qemu/test_dtrace_errno.sh|mps2-an385|$(H)
# walltimestamp live is the host's date (semihosting's SYS_TIME at the program's start),
# against the host's own date read around the boot.
SCRIPT_TESTS += qemu-walltime/mps2-an385|300|test/qemu/test_dtrace_walltime.sh|mps2-an385|$(H)
# sched:::tick on every CPU, live and over the same boot's capture, each CPU's count near the
# rate its timer was programmed at (docs/d-probes.md): the boards with several CPUs in QEMU.
TICKCPU_BOARDS := qemu-virt-a53
SCRIPT_TESTS += $(foreach b,$(TICKCPU_BOARDS),qemu-tickcpus/$(b)|300|test/qemu/test_dtrace_tick_cpus.sh|build/$(b)|$(H))
TEST_DEPS    += $(H)/dcompile $(H)/dtrace $(H)/traceprinter $(foreach b,$(filter-out $(BOARD),$(TICKCPU_BOARDS)),matrix-images-$(b))
# D on the shared side: a D program's counts of the messages of a pair per CPU on 4 CPUs, exact,
# and the entries run shared meanwhile (docs/smp.md, "D on several CPUs").
DSHARED_BOARDS := qemu-virt-a53
SCRIPT_TESTS += $(foreach b,$(DSHARED_BOARDS),qemu-dshared/$(b)|180|test/qemu/test_dshared.sh|build/$(b)|$(H))
TEST_DEPS    += $(H)/dcompile $(foreach b,$(filter-out $(BOARD),$(DSHARED_BOARDS)),matrix-images-$(b))
# Threads woken across CPUs on the host's clock, under D and traced: the capture's thread states
# are a scheduler's, and the D script's counts live equal dtrace -i's (kernel/sched.c, TRACE
# ORDER; test_states_cpus.sh).
STATES_BOARDS := qemu-virt-a53
SCRIPT_TESTS += $(foreach b,$(STATES_BOARDS),qemu-states-cpus/$(b)|300|test/qemu/test_states_cpus.sh|build/$(b)|$(H))
TEST_DEPS    += $(H)/dcompile $(H)/dtrace $(H)/traceprinter $(foreach b,$(filter-out $(BOARD),$(STATES_BOARDS)),matrix-images-$(b))
# make test-build resolves on every board; a board without an image (BOARD_NO_IMAGES) skips
# the tests that boot it (host only: make -n, nothing built). 32 to 49 s on a 2-core host,
# past 120 s under heavy load (seen once): the limit only catches a hang, so it leaves room.
SCRIPT_TESTS_HOST += build/test-build|300|test/qemu/test_test_build.sh
# A boot command line longer than the tracelogger's buffer is an error, never a silent run with
# the image's built-in options (docs/tracelogger.md): semihosting (QEMU) and a boot loader's
# line (x86-pc, the kernel's answer).
TLCMDLINE_BOARDS := mps2-an385 netduinoplus2 x86-pc
SCRIPT_TESTS += $(foreach b,$(TLCMDLINE_BOARDS),qemu-tlcmdline/$(b)|180|test/qemu/test_tracelogger_cmdline.sh|$(b)|$(H))
TEST_DEPS    += $(B)/demo.elf $(H)/traceprinter $(H)/kevcapture
# The capture says how QEMU kept its time (QEMU_CLOCK, from scripts/qemu-run.sh) and kevstat
# names the mode and warns of the emulator's artefacts: semihosting's command line, x86-pc's
# -append, qemu-virt-a53's four CPUs (test_clock_item.sh; 3 to 10 s a board).
CLOCK_BOARDS := mps2-an385 qemu-virt-a53 x86-pc
SCRIPT_TESTS += $(foreach b,$(CLOCK_BOARDS),qemu-clock/$(b)|120|BOARD=$(b)|test/qemu/test_clock_item.sh|build/$(b)|$(H))
TEST_DEPS    += $(H)/kevstat $(foreach b,$(filter-out $(BOARD),$(CLOCK_BOARDS)),matrix-images-$(b))

# The fbt provider (docs/fbt.md): fbtgen's decoder and slots against objdump; fbt counts,
# arguments and return values against gdb's breakpoints, info args and finish in one boot;
# fbt against the static probes, live and over that boot's capture.
# AArch64: the decoder and gdb's oracle on both boards; the capture, every probe at once and zero
# probe effect on the four CPUs of qemu-virt-a53 (FBT_A64_BOARDS).
FBT_BOARDS := mps2-an385 x86-pc
FBT_GEN_BOARDS := $(FBT_BOARDS) qemu-virt-a53 raspi3b
FBT_A64_BOARDS := qemu-virt-a53
SCRIPT_TESTS += $(foreach b,$(FBT_GEN_BOARDS),fbt-gen/$(b)|120|BOARD=$(b)|test/tools/test_fbtgen.sh|build/$(b)|$(H))
SCRIPT_TESTS += $(foreach b,$(FBT_BOARDS) $(FBT_A64_BOARDS) raspi3b,qemu-fbt-gdb/$(b)|400|BOARD=$(b)|test/qemu/test_fbt_gdb.sh|build/$(b)|$(H))
SCRIPT_TESTS += $(foreach b,$(FBT_BOARDS) $(FBT_A64_BOARDS),qemu-fbt-capture/$(b)|300|BOARD=$(b)|test/qemu/test_fbt_capture.sh|build/$(b)|$(H))
# Every fbt probe at once while the hostile-process suite runs under D; and zero probe effect:
# the kernel benchmarks with fbt built in and no probe enabled equal the kernel's without it.
SCRIPT_TESTS += $(foreach b,$(FBT_BOARDS) $(FBT_A64_BOARDS),qemu-fbt-all/$(b)|400|BOARD=$(b)|test/qemu/test_fbt_all.sh|build/$(b)|$(H))
# A heavy program (thirteen clauses with every kind of action) on every fbt probe: it loads and
# counts right where memory allows, and mps2-an385 names the limits it keeps.
SCRIPT_TESTS += $(foreach b,$(FBT_BOARDS) $(FBT_A64_BOARDS),qemu-fbt-heavy/$(b)|500|BOARD=$(b)|test/qemu/test_fbt_heavy.sh|build/$(b)|$(H))
# Every fbt:::entry under a slow clock (-icount shift=6,sleep=off): dtrace says what the probes
# cost before the workload starts, and the workload still ends (python's count of primes).
SCRIPT_TESTS += $(if $(filter $(BOARD),mps2-an385),qemu-fbt-slow/$(BOARD)|600|BOARD=$(BOARD)|test/qemu/test_fbt_slow.sh|$(B)|$(H))
SCRIPT_TESTS += $(foreach b,$(FBT_BOARDS) $(FBT_A64_BOARDS),qemu-fbt-zero/$(b)|300|BOARD=$(b)|test/qemu/test_fbt_zero.sh|build/$(b))
# The Toolkit's modcalls.d (every kernel function's entry) as a user runs it, make dtrace with
# its own defaults (120 s): it ends, the workload's verdicts hold, the count is the capture's.
SCRIPT_TESTS += $(foreach b,$(FBT_BOARDS) $(FBT_A64_BOARDS) raspi3b,qemu-fbt-modcalls/$(b)|300|test/qemu/test_fbt_modcalls.sh|$(b)|$(H))
# Its figures (scripts/bench-fbt.sh), on a board whose kernel has the provider.
BENCHES      += $(if $(KFBT),scripts/bench-fbt.sh|$(B)|$(H))
BENCH_DEPS   += $(if $(KFBT),$(B)/kbench.elf $(B)/kbench_nofbt.elf \
                    $(B)/dtrace.elf $(H)/dcompile $(H)/dtrace)
TEST_DEPS    += $(H)/fbtgen $(H)/dcompile $(H)/dtrace $(H)/kevcapture \
                $(foreach b,$(filter-out $(BOARD),$(FBT_BOARDS)),matrix-images-$(b))

# USDT probes (docs/usdt.md): readelf -n, gdb's info probes and dtrace -l --elf list the same
# sites; enabled, they fire as often as the program says it passed them, with its arguments;
# a site that is not one is refused. The disabled site's cost, from the program's code.
# The same script checks the pid provider where its probes are placed (PID_BOARDS); x86-pc's
# dtrace reads the host-compiled object as a Multiboot module (docs/x86.md, "Host files").
USDT_BOARDS := mps2-an385 qemu-virt-a53 raspi3b x86-pc
PID_BOARDS  := mps2-an385 qemu-virt-a53 raspi3b x86-pc
SCRIPT_TESTS += $(foreach b,$(USDT_BOARDS),qemu-usdt/$(b)|120|BOARD=$(b)|test/qemu/test_usdt.sh|build/$(b)|$(H))
TEST_DEPS    += $(H)/dcompile $(H)/dtrace $(H)/kevstat $(H)/kevcapture $(foreach b,$(filter-out $(BOARD),$(USDT_BOARDS)),matrix-images-$(b))
BENCHES      += $(if $(filter $(BOARD),$(USDT_BOARDS)),scripts/bench-usdt.sh|$(B))
# dcompile without -T binds $target as dtrace -i does, to the program its pid$target probes
# name: the object equals -T NAME's (no boot: the board's usdtdemo ELF file).
SCRIPT_TESTS += $(if $(filter $(BOARD),$(PID_BOARDS)),dcompile-target/$(BOARD)|60|test/tools/test_dcompile_target.sh|$(H)|$(B)/usdt/usdtdemo.elf)
# pid probes placed and removed while the probed function runs on every CPU (docs/pid.md,
# "Several CPUs"), on the boards with several CPUs that place them.
PID_SMP_BOARDS := qemu-virt-a53
SCRIPT_TESTS += $(foreach b,$(PID_SMP_BOARDS),qemu-pid-smp/$(b)|300|BOARD=$(b)|test/qemu/test_pid_smp.sh|build/$(b)|$(H))
# pid probes (docs/pid.md): a firing's instructions beside the same clause on a USDT probe.
BENCHES      += $(if $(filter $(BOARD),$(PID_BOARDS)),scripts/bench-pid.sh|$(B)|$(H))
# Who may place pid probes (docs/pid.md, "Who may"): a consumer without KAPP_F_PRIV (pidself,
# the pidperm image) refused on another program's process, accepted on its own.
SCRIPT_TESTS += $(foreach b,$(PID_BOARDS),qemu-pid-perm/$(b)|120|BOARD=$(b)|test/qemu/test_pid_perm.sh|build/$(b)|$(H))
# Who may place USDT probes, and where (docs/usdt.md, "Who may"): the same consumer (pidself,
# the usdtperm image) naming another program's real site, its constants equal to the no-op
# and the trap, a unit inside its wide instruction and its .data variable as a semaphore:
# refused (EPERM), the victim's own looks unchanged; the same on its own program refused by
# its loaded notes (EINVAL); its own real site accepted, counted, the no-op back after.
SCRIPT_TESTS += $(foreach b,$(USDT_BOARDS),qemu-usdt-perm/$(b)|480|BOARD=$(b)|test/qemu/test_usdt_perm.sh|build/$(b)|$(H))
# What a D consumer without KAPP_F_PRIV may read and probe (docs/hostile.md, "What a consumer
# may do"): copyin, copyinstr, ustack in another program's context are ERRORs; fbt refused.
SCRIPT_TESTS += $(foreach b,$(PID_BOARDS),qemu-d-priv/$(b)|120|BOARD=$(b)|test/qemu/test_d_priv.sh|build/$(b)|$(H))
# Kernel variables by symbol (docs/fbt.md, "Kernel variables"): D's `name against gdb's read.
KVAR_BOARDS := mps2-an385 qemu-virt-a53
SCRIPT_TESTS += $(foreach b,$(KVAR_BOARDS),qemu-d-kvar/$(b)|300|BOARD=$(b)|test/qemu/test_d_kvar.sh|build/$(b)|$(H))
# The load average (kernel/kloadavg.c, Solaris's avenrun): `avenrun after loadgen kept a known
# number of threads runnable for 4 s, against the exponential averages computed on the host
# (test/tools/loadavg_expect.py). Its own boot of about 2 s: no other boot has that load.
SCRIPT_TESTS += $(foreach b,$(KVAR_BOARDS),qemu-loadavg/$(b)|120|BOARD=$(b)|test/qemu/test_loadavg.sh|build/$(b)|$(H))
ifneq ($(filter loadavgd,$(IMAGES)),)
TEST_DEPS    += $(B)/loadavgd.elf $(H)/dcompile
endif
# DTrace users' toolbox idioms (?: aggregations, `mpid, `ncpus, zonename, func/mod of kernel
# pcs, a script's bufsize=16k, syscall:: counts, $pid, progenyof( ), `utsname) live and over the
# same boot's capture, equal byte for byte, with acq's own pid and counts of its calls, the
# programs' console pids and the header as traceprinter prints it as truth. One boot of the
# acqparity image, about 5 s, and a second as long for a declared self-> array (each thread's
# depth and calls, acq's counts).
SCRIPT_TESTS += qemu-dtoolbox/mps2-an385|120|BOARD=mps2-an385|test/qemu/test_dtrace_toolbox.sh|build/mps2-an385|$(H)
# The decisions' events (REMAIN_CPU, SIGNAL_SEND, SURRENDER): decide's own count of its kills
# and its ticks as truth, their probes live and over the same boot's capture equal byte for byte
# (test_decisions.sh; one boot of about 2 s; qemu-virt-a53's CPUs interrupt each other: surrender).
SCRIPT_TESTS += qemu-decisions/mps2-an385|120|BOARD=mps2-an385|test/qemu/test_decisions.sh|build/mps2-an385|$(H)
SCRIPT_TESTS += qemu-decisions/qemu-virt-a53|120|BOARD=qemu-virt-a53|test/qemu/test_decisions.sh|build/qemu-virt-a53|$(H)
ifneq ($(filter decidetest,$(IMAGES)),)
TEST_DEPS    += $(B)/decidetest.elf $(H)/dcompile $(H)/dtrace
endif
# Threads taken from another CPU's run queue (STEAL, sched:::dequeue's args[2], the Guide's
# whosteal.d): steal's own count of its threads' runs elsewhere than the CPU they were queued
# on (the thread table's CPU at each wake-up; nothing preempts them), per thread, as truth, live
# and over the same boot's capture equal byte for byte, the capture's STEAL events counted from
# traceprinter's lines (test_steal.sh; one boot of 3 s).
SCRIPT_TESTS += qemu-steal/qemu-virt-a53|120|BOARD=qemu-virt-a53|test/qemu/test_steal.sh|build/qemu-virt-a53|$(H)
ifneq ($(filter stealtest,$(IMAGES)),)
TEST_DEPS    += $(B)/stealtest.elf $(H)/dcompile $(H)/dtrace $(H)/traceprinter
endif
# Solaris's interrupt devices in D (struct dev_info, `devnamesp: d/ddevinfo.h), the Guide's
# sdt/intr.d idiom, live and over the same boot's capture: irqrate's own count of its device's
# interrupts and the board's name for its line as truth (test_d_irqdev.sh; one boot of 2 s).
SCRIPT_TESTS += qemu-d-irqdev/mps2-an385|120|BOARD=mps2-an385|test/qemu/test_d_irqdev.sh|build/mps2-an385|$(H)
SCRIPT_TESTS += qemu-d-irqdev/qemu-virt-a53|120|BOARD=qemu-virt-a53|test/qemu/test_d_irqdev.sh|build/qemu-virt-a53|$(H)
# What a D program costs is what fires, and dtrace's closing line says it: irqrate's free-time
# meter at 5 kHz of interrupts under an interrupt-latency quantize and a per-thread count
# (test_d_cost.sh).
SCRIPT_TESTS += qemu-d-cost/mps2-an385|200|BOARD=mps2-an385|test/qemu/test_d_cost.sh|build/mps2-an385|$(H)
SCRIPT_TESTS += qemu-d-cost/qemu-virt-a53|200|BOARD=qemu-virt-a53|test/qemu/test_d_cost.sh|build/qemu-virt-a53|$(H)
# deadline's truth under a BEGIN-only program and under a latency quantize and per-thread count
# is make run's (test/qemu/test_d_truth.sh: three boots of 3000 periods in exact mode, ~10 s)
SCRIPT_TESTS += qemu-d-truth/mps2-an385|200|BOARD=mps2-an385|test/qemu/test_d_truth.sh|build/mps2-an385|$(H)
SCRIPT_TESTS += qemu-d-truth/qemu-virt-a53|200|BOARD=qemu-virt-a53|test/qemu/test_d_truth.sh|build/qemu-virt-a53|$(H)
ifneq ($(filter irqdevtest,$(IMAGES)),)
TEST_DEPS    += $(B)/irqdevtest.elf $(H)/dcompile $(H)/dtrace
endif
# dtrace -i over captures that lie partly outside their D program's run: a ring that wrapped
# over the go (the stop kept), and tracing that began after the go and ended before the stop;
# the board's aggregations over acq's events as truth (two boots of acqparity, about 5 s each).
SCRIPT_TESTS += qemu-dgoless/mps2-an385|120|BOARD=mps2-an385|test/qemu/test_dtrace_goless.sh|build/mps2-an385|$(H)
# raise( ) (docs/d-subset.md): the board's dtrace kills the firing process; worker's wait
# status and its own count of primes (python's) are the truths.
SCRIPT_TESTS += $(foreach b,$(KVAR_BOARDS),qemu-d-raise/$(b)|200|BOARD=$(b)|test/qemu/test_d_raise.sh|build/$(b)|$(H))
# Each i386 and Thumb instruction a pid probe displaces, run by the kernel under the program's
# own checks (pidops, an image on these boards; it comes with USDT_BOARDS' images above), and
# every pidops function's entry and return at once (705 probes on Thumb). Four boots on
# Thumb, three on i386, about 6 s.
PIDOPS_BOARDS := mps2-an385 x86-pc
SCRIPT_TESTS += $(foreach b,$(PIDOPS_BOARDS),qemu-pid-ops/$(b)|180|BOARD=$(b)|test/qemu/test_pid_ops.sh|build/$(b)|$(H))
BENCH_DEPS   += $(if $(filter $(BOARD),$(USDT_BOARDS)),$(B)/usdt.elf)
# Code in flash (docs/usdt.md): gdb's reads and writes show that QEMU models no Flash Patch and
# Breakpoint unit and no DebugMonitor exception on netduinoplus2.
SCRIPT_TESTS += qemu-fpb/netduinoplus2|60|test/qemu/test_fpb_qemu.sh|build/netduinoplus2
TEST_DEPS    += $(if $(filter netduinoplus2,$(BOARD)),$(B)/demo.elf,matrix-images-netduinoplus2)
# make live on a pseudo-terminal: one q after kevtop's end ends kevtop, the page and the script
# (about 15 s).
SCRIPT_TESTS += qemu/live-q|90|test/qemu/test_live_q.sh|$(B)|$(H)
