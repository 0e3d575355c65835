// SPDX-License-Identifier: MIT
// The D engine benchmark's cases, one list for both its runs: the host's (tools/dtrace/
// dbench.c, ns per firing) and the Cortex-M3's (test/d/target/dbench_target.c, instructions
// per firing, the figures #5's targets are about). X(name, program) for each case.
#ifndef TEST_D_BENCH_CASES_H
#define TEST_D_BENCH_CASES_H

#define D_BENCH_CASES(X)                                                      \
    X("empty", "kercall::MsgSend:entry { }")                                  \
    X("pred_fail", "kercall::MsgSend:entry /pid == 5/ { }")                   \
    X("count", "kercall::MsgSend:entry { @[probefunc] = count(); }")          \
    X("count_pid", "kercall::MsgSend:entry { @[pid] = count(); }")            \
    X("quantize", "kercall::MsgSend:entry { @ = quantize(arg0); }")           \
    X("self_ts", "kercall::MsgSend:entry { self->ts = timestamp; }")

#endif
