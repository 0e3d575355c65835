# SPDX-License-Identifier: MIT
# Programs and images on qemu-virt-a53 (included by user/module.mk after its defaults).
# picolibc for AArch64 is found through its specs file's path (board.mk).
LIBC_SPECS := --specs=$(PICOLIBC_SPECS)
ULDFLAGS   := $(ARCH_CFLAGS) $(LIBC_SPECS) --oslib=semihost -nostartfiles \
              -Wl,--gc-sections -DPICOLIBC_DOUBLE_PRINTF_SCANF
# Programs keep addresses in 32-bit kernel-call arguments and trace words (user memory lies
# below 4 GB): the casts that say so are not errors here.
LIBC_SPECS += -Wno-pointer-to-int-cast -Wno-int-to-pointer-cast

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
