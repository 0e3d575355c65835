// SPDX-License-Identifier: MIT
// dtrace -i's probe arguments that a capture may not hold (docs/d-probes.md "Over a capture"):
// the replay fires them as 0 and says so once, after the replay, for the probes whose clauses
// read them, with how many firings it concerns and what would have held them. The board fires
// every argument; a capture holds what its events carry (docs/trace-events.md), and the rest
// is derived from other events (a message's connection from its MsgSend's entry, a blocked
// thread's object from its blocking call's entry) when those are in the capture.
#ifndef DTRACE_KEVREPLAY_ARGS_H
#define DTRACE_KEVREPLAY_ARGS_H

#include <d/dvm.h>
#include <stdint.h>

/* Why an argument is missing: one note each. */
enum rargs_why {
    RARGS_KCALL_FAST,   /* kercall entry arg2-arg5: the call's entry event was fast (2 words) */
    RARGS_MSG_BYTES,    /* msg arg2: the sender's MsgSend entry was fast, or not captured */
    RARGS_MSG_COID,     /* msg arg0: the sender's MsgSend entry is not in the capture */
    RARGS_BLOCK_OBJ,    /* sched:::block-* arg3: the blocking call's entry is not captured */
    RARGS_EXIT_STATUS,  /* thread-exit and proc:::exit arg1: no event carries an exit status */
    RARGS_NWHY
};

/* rargs_begin: which arguments the program's clauses read, per probe (the DIF_BUILTIN arg0-
 * arg9 loads of each enabled clause's predicate and actions); forgets earlier notes. */
void rargs_begin(const struct dvm_state *st);

/* rargs_missing: a firing of probe id whose arguments in `args` (a bit per argument) are not
 * in the capture, for reason why: counted when the program reads one of them. */
void rargs_missing(uint32_t id, unsigned args, enum rargs_why why);

/* rargs_report: the notes, once each, on stderr (path: the capture). */
void rargs_report(const char *path);

#endif
