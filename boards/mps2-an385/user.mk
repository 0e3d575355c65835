# SPDX-License-Identifier: MIT
# Programs on mps2-an385 (included by user/module.mk after its defaults).
#
# The target's dtrace compiles D on the board (-s, -n): the compiler works in a 352 KB arena
# (the conformance suite's largest script needs about 216 KB on a 64-bit host, less here), so
# dtrace gets a 512 KB RAM slot at the top of program RAM, clear of the demo's programs
# (slots 0-5: 0x20040000-0x20070000) that share its image.
dtrace_RAM_SLOT := 0x80000
# Its code (the compiler, the preprocessor and the consumer) is more than one 128 KB flash
# slot holds: it takes two in a row (user/module.mk <name>_FLASH_SLOTS).
dtrace_FLASH_SLOTS := 2
dtrace_RAM_BASE := 0x20180000
# The compiler's arena; its stack: boards/common/dtrace_stack.mk.
$(B)/apps/dtrace/obj/user/apps/dtrace/dtrace.c.o: UCFLAGS += -DDTRACE_CC_ARENA=0x58000
include boards/common/dtrace_stack.mk
