# SPDX-License-Identifier: MIT
# dtrace: the target's D consumer (user/module.mk reads this file: docs/applications.md).
# The target's dtrace: the compiler and consumer of trace/d, with the two calls that change
# aggregations renamed to kernel calls (its view of the engine is read-only). It compiles on
# the board when the board gives it a compiler arena (DTRACE_CC_ARENA, boards/<b>/user.mk).
PRIO  := 150
# (its own priority, which it reads at and which its reading rounds take when they must be
# atomic: dtrace.c read_round)
DTRACE_OWN_PRIO := $(PRIO)
$(B)/apps/dtrace/obj/user/apps/dtrace/dtrace.c.o: UCFLAGS += -DDTRACE_OWN_PRIO=$(DTRACE_OWN_PRIO)
FLAGS := KAPP_F_TRACE|KAPP_F_PRIV|KAPP_F_HOSTFS
# The code generator's files (trace/d/module.mk's D_CG_SRCS, read after this file).
D_CG_FILES := $(sort $(wildcard trace/d/cg*.c))
EXTRA := user/lib/utc_date.c trace/d/consume.c trace/d/caggpack.c trace/d/flowindent.c trace/d/fmt.c trace/d/cstack.c trace/d/csymaddr.c trace/d/agg.c trace/d/vm.c trace/d/engine.c trace/d/stacks.c \
         trace/d/verify.c trace/d/probes.c trace/d/dfbt.c trace/d/dobj_opts.c trace/d/optval.c trace/d/subr_unsupported.c trace/d/symaddr.c trace/d/dtarget.c trace/d/lex.c \
         trace/d/parse.c trace/d/decl.c trace/d/types.c trace/d/procinfo.c trace/d/ctypes.c trace/d/dcpp.c \
         $(D_CG_FILES)
STACK := 0x800
$(B)/apps/dtrace/obj/trace/d/consume.c.o: UCFLAGS += -Ddvm_agg_clear=kdt_user_agg_clear \
                                               -Ddvm_agg_remove=kdt_user_agg_remove
# make dtrace over the demo system.
IMAGES      += dtrace
dtrace_APPS := dtrace init srv client ticker driver worker

# The compiler and the verifier run once per program, the consumer's formatting once per
# record read, so their files are built for size (-Os) rather than speed: they are most of
# this image (mps2-an385 gives it two of its 128 KB flash slots, boards/mps2-an385/user.mk;
# the other boards' slots are 256 KB).
$(foreach f,lex parse decl types procinfo ctypes $(basename $(notdir $(D_CG_FILES))) dcpp dobj_opts optval subr_unsupported symaddr csymaddr dtarget consume caggpack flowindent fmt verify engine vm agg probes dfbt,$(eval \
    $(B)/apps/dtrace/obj/trace/d/$(f).c.o: UCFLAGS += -Os))

# The parity test's image (test/qemu/test_dprobe_parity.sh): the demo under dtrace with the
# tracelogger init starts, so that one boot gives the live answer and a capture of the run.
# (expanded where user/module.mk filters IMAGES: not on a board without the dtrace image)
IMAGES        += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,dtparity)
dtparity_APPS := dtrace init srv client ticker driver worker tracelogger

# newlib-nano's build (LIBC=newlib, ldscripts/app-newlib.ld) keeps every program's unwind
# tables, and its larger C library leaves this image no room for them in a 128 KB slot: its
# stacks are never unwound (the stack tests unwind their own programs), so it is built without.
ifeq ($(LIBC),newlib)
$(B)/apps/dtrace/obj/%.o: UCFLAGS += -fno-unwind-tables -fno-asynchronous-unwind-tables
endif
