# SPDX-License-Identifier: MIT
# The D engine (compiler, verifier, VM, aggregations, consumer): portable freestanding C.
# D_ENGINE_SRCS is what the kernel links (verify, VM, buffers, aggregations, probe table);
# D_ALL_SRCS adds the compiler and the consumer for host tools and the target dtrace program.
D_ENGINE_SRCS := trace/d/verify.c trace/d/vm.c trace/d/engine.c trace/d/agg.c trace/d/probes.c trace/d/dfbt.c \
                 trace/d/stacks.c trace/d/devinfo.c
# The code generator, one file per construct (cg_impl.h is their shared state).
D_CG_SRCS     := trace/d/cg.c trace/d/cg_types.c trace/d/cg_var.c trace/d/cg_expr.c trace/d/cg_assign.c \
                 trace/d/cg_call.c trace/d/cg_obj.c trace/d/cg_xlate.c trace/d/cg_kvar.c trace/d/cg_devinfo.c trace/d/cg_args.c \
                 trace/d/cg_act.c trace/d/cg_printf.c trace/d/cg_agg.c trace/d/cg_probe.c trace/d/cg_clause.c
D_CC_SRCS     := trace/d/lex.c trace/d/parse.c trace/d/decl.c trace/d/types.c trace/d/procinfo.c trace/d/ctypes.c $(D_CG_SRCS) trace/d/dobj_opts.c trace/d/optval.c trace/d/subr_unsupported.c trace/d/symaddr.c trace/d/dtarget.c trace/d/dcpp.c
D_CONS_SRCS   := trace/d/fmt.c trace/d/consume.c trace/d/caggpack.c trace/d/flowindent.c trace/d/cstack.c trace/d/csymaddr.c
D_ALL_SRCS    := $(D_ENGINE_SRCS) $(D_CC_SRCS) $(D_CONS_SRCS)
