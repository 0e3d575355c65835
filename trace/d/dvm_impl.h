// SPDX-License-Identifier: MIT
// Engine internals shared by vm.c (the interpreter), agg.c and engine.c: the per-CPU firing
// state. One struct dvm_cpu per CPU; only that CPU's firing touches it. What several CPUs'
// firings share goes through datomic.h (d/dvm.h, "CONCURRENCY").
#ifndef D_DVM_IMPL_H
#define D_DVM_IMPL_H

#include <d/dvm.h>
#include "dutil.h"
#include "datomic.h"

/* A firing's work budget: string bytes a subroutine may touch are charged as it runs; past
 * the budget the program faults with DVM_F_BUDGET (to ERROR). The DIF instructions a probe's
 * clauses may run (their programs' lengths: branches only go forward) are bounded when the
 * object is loaded, to half of it, so they cost nothing at run time. Together: no firing
 * holds the kernel long, about 10 ms of a 25 MHz Cortex-M3 at most. */
#define DVM_FIRING_BUDGET (256 * 1024)

struct dvm_cpu {
    struct dvm_state *st;
    const struct dvm_ctx *ctx;
    const uint64_t *args;
    uint32_t probe;         /* object probe index */
    uint32_t epid;
    uint64_t regs[DIF_NREGS];
    uint64_t tup[DIF_TUPMAX];
    uint8_t tuptype[DIF_TUPMAX];
    unsigned ntup;
    uint64_t rec[DIF_RECMAX];
    uint8_t rectype[DIF_RECMAX];
    unsigned nrec;
    uint8_t *scratch;
    uint32_t scratch_used;
    char *strtok;           /* strtok( )'s string (strsize bytes; only if the program calls it) */
    uint32_t strtok_off, strtok_len; /* where strtok(NULL, ...) goes on; off == len: done */
    uint8_t *tvars;
    uint8_t *key;           /* dynamic-variable key being built (st->dyn.keymax bytes) */
    uint8_t *specrec;       /* staging record of a speculative clause */
    struct dvm_aggmemo *memo; /* per action (aggregating ones only used) */
    struct dvm_constagg *constagg; /* per ECB number (see struct dvm_ecb_link) */
    /* the last self-> variable this CPU found: (variable, thread) -> value, valid while no
     * dynamic variable was freed since (st->dyn.gen); self_var is the variable + 1, 0 while
     * none was found (so a match implies self_val is set: one compare fewer a firing) */
    uint8_t *self_val;
    uint32_t self_var, self_gen;
    uint64_t self_thr;      /* the thread of self_val (dvm_thread_key) */
    unsigned busy;          /* inside dvm_fire: a nested firing on this CPU is dropped */
    unsigned in_error;      /* ERROR clauses running: their faults do not refire ERROR */
    uint32_t epoch;         /* concurrent: +1 as a firing starts and as it ends (odd inside one),
                             * written by this CPU, read by the others (engine.c, dynamic
                             * variables: when a freed chunk may be reused) */
    int32_t budget;         /* work left in this firing (DVM_FIRING_BUDGET) */
    unsigned fault;
    uint32_t fault_pc;
    uint64_t fault_addr;
};

/* dvm_run: executes a verified program; returns 0 with *out set, or a fault (c->fault_pc,
 * c->fault_addr describe it). */
unsigned dvm_run(struct dvm_cpu *c, const struct dif_prog *p, uint64_t *out);

/* dvm_builtin: the value of built-in variable id (string ones in scratch; may set c->fault). */
uint64_t dvm_builtin(struct dvm_cpu *c, unsigned id);

/* dvm_str: validates a string address; returns its bytes and length (< strsize), or NULL. */
const char *dvm_str(struct dvm_cpu *c, uint64_t addr, unsigned *len);

/* dvm_copy_mem: copies n bytes from D memory at addr (tracemem); -1 with a BADADDR fault
 * when they are not all inside one region the VM may read. */
int dvm_copy_mem(struct dvm_cpu *c, uint8_t *dst, uint64_t addr, unsigned n);

/* dvm_put_value: writes a stack value of type `type` at dst (8 bytes, or strsize padded). */
int dvm_put_value(struct dvm_cpu *c, uint8_t *dst, uint8_t type, uint64_t v);

/* dvm_spec_room: 1 if the running speculative clause's record fits speculation id, else 0
 * (a full buffer counts a speculative drop). */
int dvm_spec_room(struct dvm_state *st, struct dvm_cpu *c, uint64_t id);

/* dvm_thread_key: the thread a firing runs in, unique across processes (tids are per
 * process): the key of its self-> variables. */
static inline uint64_t dvm_thread_key(const struct dvm_ctx *x)
{
    return (uint64_t)(uint32_t)x->pid << 32 | (uint32_t)x->tid;
}

#endif
