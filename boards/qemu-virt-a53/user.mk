# SPDX-License-Identifier: MIT
# Programs and images on qemu-virt-a53 (included by user/module.mk after its defaults).
# picolibc and its flags: boards/common/aarch64_user.mk.
include boards/common/aarch64_user.mk

# The target's dtrace compiles D on the board in a 576 KB arena: a 1 MB RAM slot above the
# other programs' (slots 0-15: 0x40800000-0x40900000), below the pool. Thirteen clauses on
# every fbt probe take ~400 KB of it beside the fbt table's copy (docs/fbt.md, "Heavy
# programs").
dtrace_RAM_SLOT := 0x100000
dtrace_RAM_BASE := 0x40900000
# The compiler's arena; its stack: boards/common/dtrace_stack.mk.
$(B)/apps/dtrace/obj/user/apps/dtrace/dtrace.c.o: UCFLAGS += -DDTRACE_CC_ARENA=0x90000
include boards/common/dtrace_stack.mk
