# SPDX-License-Identifier: MIT
# The target dtrace's compiler stack, the same on every board that builds the dtrace image
# (mps2-an385, x86-pc, qemu-virt-a53, raspi3b: each user.mk includes this after its own arena
# and RAM slot). The compiler recurses as a script nests and refuses a script that would take
# more than DTRACE_CC_STACK below its call (trace/include/d/dcc.h, stack_room); dtrace_STACK
# adds 4 KB for main's frames above it (1.3 KB measured on qemu-virt-a53). 28 KB hold 66 nested
# parentheses there (docs/d-subset.md, "Nesting": measured by painting the stack under gdb).
dtrace_STACK := 0x8000
$(B)/apps/dtrace/obj/user/apps/dtrace/dtrace.c.o: UCFLAGS += -DDTRACE_CC_STACK=0x7000
