// SPDX-License-Identifier: MIT
// The D engine benchmark's cases, one list for both its runs: the host's (tools/dtrace/
// dbench.c, ns per firing) and the Cortex-M3's (test/d/target/dbench_target.c, instructions
// per firing). X(name, program) for each case.
#ifndef DBENCH_CASES_H
#define DBENCH_CASES_H

#include <stdint.h>
#include <string.h>

#define D_BENCH_CASES(X)                                                      \
    X("empty", "kercall::MsgSend:entry { }")                                  \
    X("pred_fail", "kercall::MsgSend:entry /pid == 5/ { }")                   \
    X("count", "kercall::MsgSend:entry { @[probefunc] = count(); }")          \
    X("count_pid", "kercall::MsgSend:entry { @[pid] = count(); }")            \
    X("count_execname_tid", "kercall::MsgSend:entry { @[execname, tid] = count(); }") \
    X("quantize", "kercall::MsgSend:entry { @ = quantize(arg0); }")           \
    X("self_ts", "kercall::MsgSend:entry { self->ts = timestamp; }")                    \
    X("copyin_member", "struct m { int op; int value; }; kercall::MsgSend:entry "        \
      "{ @[((struct m *)copyin(arg1, sizeof (struct m)))->op] = count(); }")          \
    X("ustack_count", "kercall::MsgSend:entry { @[ustack()] = count(); }")

/* The message a send's arg1 points to in every case (copyin_member reads it), and the
 * engine's copyin reader over it: the traced process's memory, as the benches model it. */
static const int32_t d_bench_msg[2] = { 2, 7 };
static inline int d_bench_uread(void *dst, uint64_t addr, unsigned n)
{
    uintptr_t b = (uintptr_t)d_bench_msg;
    if (addr < b || addr - b > sizeof(d_bench_msg) || n > sizeof(d_bench_msg) - (addr - b))
        return -1;
    memcpy(dst, (const void *)(uintptr_t)addr, n);
    return 0;
}

#endif
