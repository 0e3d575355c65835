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
# The compiler's stack: it recurses as a script nests and refuses a script that would take
# more than DTRACE_CC_STACK below its call (trace/include/d/dcc.h, stack_room); dtrace_STACK
# adds 4 KB for main's frames above it (1.3 KB measured). 28 KB hold 66 nested parentheses
# on AArch64 (docs/d-subset.md, "Nesting": measured by painting the stack under gdb).
dtrace_STACK := 0x8000
$(B)/apps/dtrace/obj/user/apps/dtrace/dtrace.c.o: UCFLAGS += -DDTRACE_CC_ARENA=0x90000 \
    -DDTRACE_CC_STACK=0x7000
