# SPDX-License-Identifier: MIT
# stacksym: symbolises dtrace's stacks on the host with elfutils' libdwfl (libdw-dev), and
# folds stack aggregations for flame graphs (docs/profiling.md).
HOST_TOOLS += $(H)/stacksym

$(H)/stacksym: $(call kevhost_objs,tools/stacksym/stacksym.c tools/common/symfilter.c tools/common/symaddr.c \
                              tools/common/tool_elfsym.c)
	@mkdir -p $(dir $@)
	@echo "  HOSTLD  $@"
	$(Q)$(HOST_CC) $^ -o $@ -ldw -lelf

# ustack( ) against gdb's bt on the board (test/stacks/test_stacks_gdb.sh).
ifneq ($(filter stacks,$(IMAGES)),)
SCRIPT_TESTS += stacks/gdb|180|test/stacks/test_stacks_gdb.sh|$(B)|$(H)
TEST_DEPS    += $(B)/stacks.elf $(H)/stacksym $(H)/dcompile
# func/ufunc/uaddr/umod and %A/%a live and over a capture, against nm (test/stacks/test_symaddr.sh).
SCRIPT_TESTS += stacks/symaddr|180|test/stacks/test_symaddr.sh|$(B)|$(H)
TEST_DEPS    += $(H)/dtrace $(H)/kevgen
endif
# ustack( ) over corrupt and hostile stacks on the board (test/stacks/test_stacks_hostile.sh).
ifneq ($(filter stackbad,$(IMAGES)),)
SCRIPT_TESTS += stacks/hostile|180|test/stacks/test_stacks_hostile.sh|$(B)|$(H)
TEST_DEPS    += $(B)/stackbad.elf $(H)/dcompile
endif
# A killed process's console line symbolised, against binutils' addr2line
# (test/stacks/test_fault_symbols.sh).
SCRIPT_TESTS += stacks/fault-symbols|120|test/stacks/test_fault_symbols.sh|$(B)|$(H)
TEST_DEPS    += $(B)/ktest.elf $(H)/stacksym

# The same on the other boards whose stacks unwind another way (AArch64 and i686 frame
# records), built by the board matrix (test/qemu/module.mk's matrix-images-<board>).
define STACKS_MATRIX_template
SCRIPT_TESTS += stacks-$(1)/gdb|180|BOARD=$(1)|test/stacks/test_stacks_gdb.sh|build/$(1)|$(H)
SCRIPT_TESTS += stacks-$(1)/symaddr|180|BOARD=$(1)|test/stacks/test_symaddr.sh|build/$(1)|$(H)
SCRIPT_TESTS += stacks-$(1)/hostile|180|BOARD=$(1)|test/stacks/test_stacks_hostile.sh|build/$(1)|$(H)
SCRIPT_TESTS += stacks-$(1)/fault-symbols|120|BOARD=$(1)|test/stacks/test_fault_symbols.sh|build/$(1)|$(H)
endef
$(foreach b,$(filter-out $(BOARD),qemu-virt-a53 x86-pc),$(eval $(call STACKS_MATRIX_template,$(b))))

# Stacks in captures (docs/trace-events.md "Stacks and faults"): dtrace -i's profile-N
# ustack( ) over a capture with stack samples against gdb's bt (test_stacks_capture.sh), and a
# faulting program's FAULT and STACK against addr2line and the board's proc:::fault
# (test_fault_capture.sh). On boards whose tracelogger writes host files (semihosting), and on
# x86-pc through its trace UART (kevcapture).
ifneq ($(filter stacks,$(IMAGES)),)
SCRIPT_TESTS += stacks/capture|180|test/stacks/test_stacks_capture.sh|$(B)|$(H)
TEST_DEPS    += $(H)/traceprinter $(H)/dtrace
endif
ifneq ($(filter stackfault,$(IMAGES)),)
SCRIPT_TESTS += stacks/fault-capture|240|test/stacks/test_fault_capture.sh|$(B)|$(H)
TEST_DEPS    += $(B)/stackfault.elf $(H)/stacksym $(H)/dcompile $(H)/traceprinter $(H)/dtrace \
                $(H)/kevstat $(H)/kevreport $(H)/kev2ctf $(H)/kev2json $(H)/kev2perfetto
endif
# Symbols from anywhere: the same program's capture with its build directory gone, named from
# ~/.debug and from Debian's debuginfod server on loopback, against addr2line
# (test/stacks/test_symbols_anywhere.sh, docs/symbols.md).
ifneq ($(filter stackfault,$(IMAGES)),)
SCRIPT_TESTS += stacks/symbols-anywhere|240|test/stacks/test_symbols_anywhere.sh|$(B)|$(H)
TEST_DEPS    += $(B)/stackfault.elf $(H)/dcompile $(H)/dtrace $(H)/kevstat $(H)/kev2json
endif
# A board without the target's dtrace (netduinoplus2): the same capture test over the stackcap
# image (appinit, stackchain, the tracelogger sampling), against gdb's bt alone.
ifneq ($(filter stackcap,$(IMAGES)),)
SCRIPT_TESTS += stacks/capture|180|test/stacks/test_stacks_capture.sh|$(B)|$(H)
TEST_DEPS    += $(B)/stackcap.elf $(H)/traceprinter $(H)/dtrace $(H)/stacksym
endif
$(foreach b,$(filter-out $(BOARD),netduinoplus2),$(eval SCRIPT_TESTS += stacks-$(b)/capture|180|BOARD=$(b)|test/stacks/test_stacks_capture.sh|build/$(b)|$(H)))
define STACKS_CAPTURE_MATRIX_template
SCRIPT_TESTS += stacks-$(1)/capture|180|BOARD=$(1)|test/stacks/test_stacks_capture.sh|build/$(1)|$(H)
SCRIPT_TESTS += stacks-$(1)/fault-capture|180|BOARD=$(1)|test/stacks/test_fault_capture.sh|build/$(1)|$(H)
endef
$(foreach b,$(filter-out $(BOARD),qemu-virt-a53 x86-pc),$(eval $(call STACKS_CAPTURE_MATRIX_template,$(b))))

# Profiles from a capture (test/stacks/test_profile_capture.sh): kevstat --folded against an
# independent reader of the file, QNX's traceprinter and addr2line, kev2perfetto's callstacks
# against trace processor's rules, kevreport's flame graph in Chromium. Boards whose
# tracelogger writes host files (semihosting).
ifneq ($(filter stacks,$(IMAGES)),)
SCRIPT_TESTS += stacks/profile-capture|180|test/stacks/test_profile_capture.sh|$(B)|$(H)
TEST_DEPS    += $(H)/kevstat $(H)/kev2perfetto $(H)/kevreport $(H)/traceprinter $(H)/dcompile
endif
define STACKS_PROFILE_MATRIX_template
SCRIPT_TESTS += stacks-$(1)/profile-capture|180|BOARD=$(1)|test/stacks/test_profile_capture.sh|build/$(1)|$(H)
endef
$(foreach b,$(filter-out $(BOARD),qemu-virt-a53),$(eval $(call STACKS_PROFILE_MATRIX_template,$(b))))

# The profile timer (test/stacks/test_hotshare.sh): user/apps/hotshare's hot function gets its
# own share of profile-997's samples, live and over the capture (dtrace -i, kevstat --folded),
# in QEMU's exact mode (whose second boot must give the same capture event for event) and on
# the host's clock; profile-5000 over a capture without samples counts what it counted live.
# The boards with dtrace whose QEMU has the three kinds of profile timer.
HOTSHARE_BOARDS := mps2-an385 qemu-virt-a53 x86-pc
# profile-997 over an idle CPU (test/stacks/test_idle_share.sh): hotshare's share of the samples
# is its running time in its own window by traceprinter's events, in all three clock modes,
# live and over the capture; on one CPU, four (qemu-virt-a53) and x86's APIC timer.
IDLESHARE_BOARDS := mps2-an385 qemu-virt-a53 x86-pc
# Its host-clock boot runs alone (test/alone.list), its instruction-counted ones beside others.
SCRIPT_TESTS += $(foreach b,$(IDLESHARE_BOARDS),stacks-idleshare/$(b)|600|BOARD=$(b)|test/stacks/test_idle_share.sh|build/$(b)|$(H)|host)
SCRIPT_TESTS += $(foreach b,$(IDLESHARE_BOARDS),stacks-idleshare-icount/$(b)|600|BOARD=$(b)|test/stacks/test_idle_share.sh|build/$(b)|$(H)|icount)
SCRIPT_TESTS += $(foreach b,$(HOTSHARE_BOARDS),stacks-hotshare/$(b)|600|BOARD=$(b)|test/stacks/test_hotshare.sh|build/$(b)|$(H)|host)
SCRIPT_TESTS += $(foreach b,$(HOTSHARE_BOARDS),stacks-hotshare-icount/$(b)|600|BOARD=$(b)|test/stacks/test_hotshare.sh|build/$(b)|$(H)|icount)
TEST_DEPS    += $(H)/dcompile $(H)/dtrace $(H)/stacksym $(H)/kevstat $(H)/traceprinter \
                $(foreach b,$(filter-out $(BOARD),$(HOTSHARE_BOARDS)),matrix-images-$(b))
