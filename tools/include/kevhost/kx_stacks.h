// SPDX-License-Identifier: MIT
// A capture's stack samples, for the profile views (kevstat --folded, kev2perfetto's
// callstacks, kevreport's flame graph): the SYSTEM STACK events of kind USER and KERNEL
// (tracelogger -p HZ; layout docs/trace-events.md, decoder trace/kev_stack.c), each
// distinct stack of a process kept once with its count, each sample with its time, CPU and
// thread. Frames are named with the image's ELF files (tools/common/tool_elfsym.c) when the
// tool was given them, else printed as addresses. A STACK the decoder refuses is counted
// (bad), never guessed at; FAULT stacks are not samples (counted apart).
#ifndef TOOLS_KX_STACKS_H
#define TOOLS_KX_STACKS_H

#include <stdio.h>
#include <trace/kev_stack.h>
#include "kx.h"

struct kx_stack {
    struct kev_stack s;        // pcs innermost first
    char comm[KEV_NAME_MAX];   // the process's name ("kernel" for pid 0)
    uint64_t count;            // samples of this stack
    int next;                  // hash chain
};

struct kx_sample {
    uint64_t t;                // cycles
    unsigned cpu;
    uint32_t pid, tid;
    int32_t lpid, ltid;        // the ids every converter gives the thread (kx_ids.h)
    unsigned stack;            // index in stacks[]
};

#define KX_STACK_HASH 4096u

struct kx_stacks {
    struct kx_stack *stacks;
    size_t nstacks, capstacks;
    struct kx_sample *samples;
    size_t nsamples, capsamples;
    uint64_t bad;              // STACK events the decoder refused
    uint64_t faults;           // FAULT stacks (not samples)
    int hash[KX_STACK_HASH];   // stack index + 1, 0 = empty
};

void kx_stacks_init(struct kx_stacks *k);
// kx_stacks_said: says on stderr what the samples miss (tool ran out of memory: oom; STACK
// events the decoder refused); returns 1 when out of memory (the tool's exit status).
int kx_stacks_said(const char *tool, const struct kx_stacks *k, int oom);
void kx_stacks_free(struct kx_stacks *k);
// kx_stacks_event: looks at one event (before kx_model_update, so the process names are
// the model's); returns 1 when it was a sample; -1 on running out of memory.
int kx_stacks_event(struct kx_stacks *k, struct kx_model *m, const struct kev_event *e);
// kx_stacks_frame: the name of frame i of a stack (function, or 0x... when no ELF file
// names it; caller frames looked up at the call, pc - 1).
void kx_stacks_frame(const struct kx_stack *st, unsigned i, char *out, size_t n);
// kx_stacks_folded: every stack as one folded line, root first, the process's name as the
// root frame: "stackchain;main;chain_a;...;chain_spin 12" (flamegraph.pl, inferno,
// speedscope); stacks that name the same frames make one line. 0, or -1 out of memory.
int kx_stacks_folded(const struct kx_stacks *k, FILE *f);
#endif
