// SPDX-License-Identifier: MIT
// The D engine the kernel runs: loads a DIF object (verifying it first), fires probes, keeps
// per-CPU principal and aggregation buffers and the dynamic-variable space, and lets a consumer
// read them. Portable freestanding C: all memory is the caller's (one region given to
// dvm_load). Nothing a script does makes these functions crash, loop or write outside that
// memory: faults abort the clause, are recorded as error records, and fire the ERROR probe.
//
// CONCURRENCY. The caller runs dvm_fire() for a CPU with interrupts off on that CPU, one
// firing at a time per CPU; firings on different CPUs may run at once when dvm_opts.concurrent
// is set, and no firing waits for another CPU's but where DTrace's semantics need it:
// - per CPU, touched by that CPU's firings alone: the principal buffers, the aggregation
//   buffers, clause-locals (this->), the scratch, the caches and memos (struct dvm_cpu), the
//   counts (struct dvm_stats);
// - global variables: plain loads and stores, racy as DTrace's are by design (two CPUs'
//   `x++` may lose one);
// - dynamic variables (associative arrays, self->): chunks come from the firing CPU's free
//   list (another CPU's when it is empty, by compare-and-swap), join a hash chain by
//   compare-and-swap, and are found without a lock; a deletion unlinks under its stripe's lock
//   (deleters alone take it) and puts the chunk on its CPU's dirty list. A chunk is free again
//   only once no firing that may still hold it runs (DTrace's dirty list and sync): a CPU
//   whose free list is empty, or that freed its batch of chunks, closes its dirty chunks into
//   a limbo, noting each CPU's epoch (struct dvm_cpu: odd inside a firing), and takes the
//   limbo back once every CPU that was in a firing then has left it; and dvm_dyn_clean frees
//   all, when no firing runs;
// - speculations: speculation() claims a buffer by compare-and-swap; a speculative record,
//   commit() and discard() take that buffer's lock for their copy;
// - the stack table: space claimed and entries published by compare-and-swap.
// dvm_buf_read(), dvm_agg_*, dvm_dyn_clean and the host's reads of the state must not run
// concurrently with firings (the kernel runs them exclusive). With concurrent clear every one of
// these is a plain access (one CPU, a capture's replay) and a freed chunk is free at once.
#ifndef D_DVM_H
#define D_DVM_H

#include <d/dif.h>
#include <stddef.h>
#include <stdint.h>

#define DVM_MAXCPU   4u
#define DVM_MAXSPEC  16u
#define DVM_NARGS    10u
#define DVM_PROBE_TABLE_MAX 512u /* >= DPROBE_COUNT (checked in engine.c) */
#define DVM_EPID_ERROR 0xffffffffu /* error record: struct dvm_errrec follows the header */
#define DVM_EPID_PAD   0u          /* filler at the end of a ring buffer: skip */

enum dvm_bufpolicy { DVM_BUF_SWITCH = 0, DVM_BUF_FILL, DVM_BUF_RING };

struct dvm_opts {
    uint64_t bufsize;      /* per CPU principal buffer (switch: two of them) */
    uint64_t aggsize;      /* per CPU aggregation buffer */
    uint64_t dynvarsize;   /* dynamic variables (arrays, self->), shared */
    unsigned bufpolicy;    /* enum dvm_bufpolicy */
    unsigned bufresize_manual; /* 0: halve bufsize until it fits; 1: fail */
    unsigned ncpu;         /* 1..DVM_MAXCPU */
    unsigned nspec;        /* speculation buffers, 0..DVM_MAXSPEC */
    uint64_t specsize;     /* bytes each */
    unsigned concurrent;   /* 1: firings on different CPUs may run at once (CONCURRENCY above) */
};

/* Per-firing context the kernel hook supplies. */
struct dvm_ctx {
    unsigned cpu;
    int32_t pid, tid, ppid, errno_;
    uint64_t timestamp, vtimestamp, walltimestamp;
    const char *execname;  /* NUL-terminated, or NULL */
    int32_t prio;          /* the thread's scheduling priority */
    int32_t nlwp;          /* threads in the process */
};

enum dvm_fault {
    DVM_F_NONE = 0, DVM_F_BADADDR, DVM_F_BADALIGN, DVM_F_ILLOP, DVM_F_DIVZERO,
    DVM_F_NOSCRATCH, DVM_F_TUPLE, DVM_F_BUDGET,
    DVM_F_SPECDROP, /* not an error: speculate( ) found no room, the clause stops there */
    DVM_F_UPRIV,    /* user memory (copyin, ustack) of a process the consumer may not trace */
    DVM_F_KPRIV,    /* a kernel variable (`name), stack( ), caller, for a consumer without
                     * the privilege */
    DVM_F_COUNT
};
const char *dvm_fault_name(unsigned fault);

/* Record layout in a principal buffer: header, then the clause's data (dc_recsize bytes). */
/* 8 bytes, so that a record of one value takes 16, as a DTrace record of an int does: small
 * buffers hold as many records as DTrace's */
struct dvm_rechdr {
    uint32_t rh_epid;      /* ECB index + 1, DVM_EPID_ERROR or DVM_EPID_PAD */
    uint16_t rh_size;      /* whole record, header included, multiple of 8 (DVM_RECMAX) */
    uint16_t rh_cpu;
};
#define DVM_RECMAX 65528u  /* largest record, header included */

struct dvm_errrec {
    uint32_t er_epid;      /* enabled probe that faulted */
    uint32_t er_action;    /* 1-based action; 0: the predicate */
    uint32_t er_offset;    /* DIF offset (bytes) of the faulting instruction */
    uint32_t er_fault;     /* enum dvm_fault */
    uint64_t er_addr;
};

_Static_assert(DIF_CLAUSE_RECMAX + sizeof(struct dvm_rechdr) <= DVM_RECMAX, "record size");
_Static_assert(sizeof(struct dvm_rechdr) == 8 && sizeof(struct dvm_errrec) == 24,
               "record layouts are shared with consumers on other machines");

struct dvm_stats {
    uint64_t drops, aggdrops, dynvardrops, errors, specdrops, specfailed;
    uint64_t fired;        /* probe firings that ran clauses (the board's dtrace times them) */
    int filled;            /* fill policy: this CPU's buffer is full */
};

struct dvm_buf {
    uint8_t *data[2];
    uint32_t size;         /* bytes usable in each */
    uint32_t active;       /* switch: index of the buffer being written */
    uint32_t off;          /* write offset (ring: tail) */
    uint32_t head, used;   /* ring only */
    uint32_t reserve;      /* fill: bytes kept for END */
};

struct dvm_agg_table {
    uint8_t *mem;
    uint32_t size, used;
    uint32_t *bucket;      /* offsets of entries + 1, 0 = empty */
    uint32_t nbuckets;
};

#define DVM_DYN_STRIPES 64u
#define DVM_DYN_BATCH 32u          /* at most, the chunks a CPU frees before it looks at its
                                    * limbo again (struct dvm_dyn's batch) */
struct dvm_dyn {
    uint8_t *mem;
    uint32_t chunk, nchunks, keymax, valmax;
    uint32_t free[DVM_MAXCPU];  /* each CPU's free chunks, first + 1 (not concurrent: [0] alone) */
    uint32_t dirty[DVM_MAXCPU]; /* concurrent: the chunks each CPU freed since its limbo closed */
    uint32_t ndirty[DVM_MAXCPU]; /* how many */
    uint32_t batch;        /* concurrent: ndirty that closes a limbo: an eighth of a CPU's
                            * share of the chunks (at most DVM_DYN_BATCH), so that while no
                            * limbo waits the dirty lists and limbos hold a quarter at most */
    uint32_t limbo[DVM_MAXCPU]; /* concurrent: freed chunks waiting for the other CPUs to leave
                                 * the firings they were in when the limbo closed */
    uint32_t *limbo_epoch; /* concurrent: [owner * ncpu + cpu], cpu's epoch then */
    uint32_t *bucket;
    uint32_t nbuckets;
    uint32_t gen;          /* bumped by every free: invalidates cached value pointers */
    uint32_t *stripe;      /* concurrent: deleters' locks, bucket % DVM_DYN_STRIPES */
};

/* A speculation: records of speculative clauses wait here until commit() copies them to the
 * committing CPU's principal buffer or discard() drops them. */
struct dvm_spec {
    uint8_t *data;
    uint32_t size, off;
    uint32_t active;       /* handed out by speculation() (claimed by compare-and-swap) */
    uint32_t lock;         /* concurrent: held for a record's copy in, commit() and discard() */
};

/* A predicate of the form `operand <cmp> operand` (operands: constants, numeric built-ins,
 * integer globals) that dvm_load recognised in verified code: evaluated without the
 * interpreter, with the same result. */
struct dvm_fastpred {
    uint8_t fp_ok;
    uint8_t fp_cond;       /* DIF branch opcode taken when the predicate holds */
    uint8_t fp_kind[2];    /* DVM_FP_* */
    uint32_t fp_idx[2];    /* built-in id, global offset, ctx offset or argument number */
    uint64_t fp_const[2];
};
/* An ECB's place in its probe's chain, read by every firing: the next ECB of the same probe
 * (index + 1, 0 at the end) and the clause's fast predicate, NULL when the clause has none
 * the fast path recognises. Indexed by ECB number so the hot loop does no index arithmetic. */
struct dvm_ecb_link {
    uint32_t next;
    const struct dvm_fastpred *fast;
    /* the clause's only action, when it aggregates a value and keys that depend on the probe
     * alone (@[probefunc] = count()): its action index + 1, else 0. Such an ECB always
     * updates the same entry with the same value, which struct dvm_constagg caches.
     * Or DVM_LINK_HDRONLY | the record's size when the clause records its header alone (no
     * action, no interpreted predicate, nothing speculative: `probe { }`): the header is
     * written without running the clause.
     * Or DVM_LINK_CTXKEY | the action index + 1 when the clause's only action aggregates
     * with one integer key that the firing's context gives (`@[pid] = count()`): `op` reads
     * the key, and a key equal to the action's memo (struct dvm_aggmemo) updates its entry
     * without running the clause.
     * Or DVM_LINK_SELFSET | the variable + 1 when the clause only stores a context value in
     * an integer thread-local (`self->ts = timestamp`): `op` reads the value, which goes
     * straight to the variable when the CPU's cache of the last thread-local found holds it
     * (a zero value, which frees the variable, runs the clause).
     * One field for all, so that the firing loop tests one word for its shortcuts. */
    uint32_t constagg;
    const struct dvm_fastpred *op; /* DVM_LINK_CTXKEY, _SELFSET: the operand (slot 0) */
};
#define DVM_LINK_HDRONLY 0x80000000u
#define DVM_LINK_CTXKEY 0x40000000u
#define DVM_LINK_SELFSET 0x20000000u
#define DVM_LINK_KINDS (DVM_LINK_HDRONLY | DVM_LINK_CTXKEY | DVM_LINK_SELFSET)

/* Per CPU and ECB: where a probe-constant aggregation's entry lives and the value it adds.
 * Entries never move (a deleted one is revived in place), so the offset stays right. */
struct dvm_constagg {
    uint32_t off;          /* entry offset + 1; 0: not cached yet */
    uint32_t pad;
    int64_t val;
};
enum { DVM_FP_CONST = 0, DVM_FP_GLOBAL, DVM_FP_ARG, DVM_FP_CTX_S32, DVM_FP_CTX_U32,
       DVM_FP_CTX_U64, DVM_FP_EPID, DVM_FP_ID };

/* The key of an aggregating action's last update on a CPU, when every key is an integer or
 * a string of the object's (immutable) string table: the same values again mean the same
 * entry, found without building, hashing or comparing the key (@[probefunc] = count()). */
#define DVM_MEMO_KEYS 2u
struct dvm_aggmemo {
    uint64_t am_val[DVM_MEMO_KEYS];
    uint32_t am_off;       /* entry offset + 1; 0: nothing cached */
    uint32_t am_pad;
};

struct dvm_cpu;

/* dvm_uread_fn: copies n bytes of the current (traced) process's memory at addr to dst; 0, or
 * -1 when any of them is not memory that process may read, or DVM_UREAD_PRIV when the
 * consumer may not trace that process (the fault DVM_F_UPRIV). It must not fault. */
#define DVM_UREAD_PRIV (-2)
typedef int (*dvm_uread_fn)(void *dst, uint64_t addr, unsigned n);
/* copyin's reader, set once by the engine's host (the kernel; a capture replay); NULL:
 * nothing is readable. A global, not in dvm_state, which a consumer may see mapped. */
extern dvm_uread_fn dvm_uread;
/* dvm_user_ok: whether the firing's process is one the consumer may trace (DTrace's
 * dtrace_proc rule: privileged, or its own program), asked before the actions that walk its
 * user stack (ustack, ucaller, ustackdepth); no: the action faults with DVM_F_UPRIV. Set by
 * the kernel; NULL (a capture replay: the capture holds only what was recorded): every
 * process. */
typedef int (*dvm_user_ok_fn)(void);
extern dvm_user_ok_fn dvm_user_ok;
/* dvm_kread: copies the n bytes of the kernel variable at addr (`name in D: DIF_S_KVAR) to
 * dst; 0, -1 when they are not the kernel's data (an invalid address), DVM_UREAD_PRIV when
 * the consumer may not read the kernel (the fault DVM_F_KPRIV). Set by the kernel; NULL (a
 * capture replay, which holds no kernel memory): every read an invalid address. */
typedef int (*dvm_kread_fn)(void *dst, uint64_t addr, unsigned n);
/* dvm_nrunnable: the threads waiting on CPU cpu's ready queues, the running one and the idle
 * thread aside (DIF_B_NRUNNABLE, Solaris's disp_nrunnable). Set by the kernel (its queues) and
 * by a capture's replay (its threads' states); NULL: 0. */
typedef int32_t (*dvm_nrunnable_fn)(unsigned cpu);
extern dvm_nrunnable_fn dvm_nrunnable;
/* A kernel code address a consumer that may not see one gets in its place (a timer probe's
 * arg0, the interrupted kernel pc): not 0, which says "not in the kernel" (DTrace's profile
 * arg0), and in no kernel's text. */
#define DVM_KADDR_HIDDEN UINT64_MAX
extern dvm_kread_fn dvm_kread;

/* dvm_spin_relax: what a CPU does between two looks at a word another CPU holds (the kernel:
 * a YIELD, which ends an emulated CPU's turn: QEMU's -icount runs them one at a time); set by
 * the engine's host, NULL: nothing. */
typedef void (*dvm_relax_fn)(void);
extern dvm_relax_fn dvm_spin_relax;

/* The stack table (d/dstacks.h, trace/d/stacks.c): interned stacks, chained by hash. */
struct dvm_stacktab {
    uint8_t *mem;
    uint32_t size, used;   /* used: claimed by compare-and-swap (dvm.h, CONCURRENCY) */
    uint32_t *bucket;      /* entry offset / 8 + 1 of the first entry; 0: none */
    uint32_t nbuckets;
    uint32_t drops;        /* stacks recorded as empty because the table was full */
    uint32_t pad;
};

struct dvm_state {
    struct dif_obj obj;
    struct dvm_opts opts;
    unsigned strsize;
    unsigned exiting;      /* exit() ran: only END fires from now on */
    uint64_t bufsize_lowered; /* bufresize=auto lowered bufsize to this (0: not lowered) */
    uint64_t aggsize_lowered, specsize_lowered; /* the same for aggsize and specsize */
    uint16_t *probe_map;   /* table probe id -> object probe index + 1 */
    uint32_t *first_ecb;   /* object probe index -> first ECB index + 1 */
    struct dvm_ecb_link *ecb_link; /* ECB index + 1 -> its chain link (slot 0 unused) */
    uint32_t *var_off;     /* variable -> offset in its area */
    uint32_t *agg_vals;    /* aggregation -> value bytes per entry */
    uint8_t *gvars;        /* global scalars */
    uint32_t gvars_size, tvars_size, scratch_size;
    struct dvm_dyn dyn;
    struct dvm_cpu *cpus;
    struct dvm_buf buf[DVM_MAXCPU];
    struct dvm_agg_table agg[DVM_MAXCPU];
    struct dvm_stats stats[DVM_MAXCPU];
    uint64_t dblerrors[DVM_MAXCPU]; /* faults in ERROR clauses (reported, never recorded) */
    struct dvm_spec spec[DVM_MAXSPEC];
    uint32_t specrec_size; /* per-CPU staging record for speculative clauses */
    struct dvm_fastpred *fastpred; /* per clause */
    struct dvm_fastpred *shortop;  /* per clause: the operand of a CTXKEY/SELFSET shortcut */
    struct dvm_stacktab stacks;    /* when the program uses stack( )/ustack( ) */
    /* set by the host for a consumer that may not see kernel addresses (the kernel: one
     * without KAPP_F_PRIV): after each firing the per-CPU work area (its registers, tuple and
     * record stacks, the context and argument pointers) is cleared, so the block the consumer
     * reads keeps no kernel pointer a firing held (docs/hostile.md); and the actions that
     * give kernel code addresses (stack( )'s kernel frames, caller) fault with DVM_F_KPRIV */
    unsigned scrub;
    /* the consumer's process id, set by the host (the kernel: the loading process's): what a
     * program compiled for a board reads for $pid (DIF_B_CONSUMER) */
    int32_t consumer_pid;
    /* what the program's code reads or keeps (DVM_USES_*, set by dvm_load): a host need not
     * fill a context value no clause reads (the kernel's vtimestamp clocks cost a lock per
     * switch on several CPUs), and a program without dynamic variables marks no epoch */
    unsigned uses;
    unsigned epochs;       /* concurrent and DVM_USES_DYN: firings mark their CPU's epoch */
    /* a trigger action ran (freeze( ), panic( ), breakpoint( ): DIF_ACT_TRIGGER): the first
     * firing to run one claims trig_kind (its DIF_TRIG_* + 1) and then sets the ECB (index + 1)
     * and its CPU + 1 (trig_cpu last), which the host tests after each firing on that CPU and
     * clears (dvm_trigger_taken) once it has acted; until then further triggers are ignored */
    uint32_t trig_kind, trig_ecb, trig_cpu;
};
#define DVM_USES_VTIMESTAMP 1u    /* the vtimestamp built-in */
#define DVM_USES_WALLTIME   2u    /* the walltimestamp built-in */
#define DVM_USES_DYN        4u    /* associative arrays or self-> variables */

/* dvm_load: verifies obj and lays the engine out in mem. Returns 0, or -1 with a message in
 * err (verifier rejection, "END enablings exceed size of principal buffer", not enough
 * memory). obj must stay valid and unchanged while st is in use. */
int dvm_load(struct dvm_state *st, const void *obj, size_t objlen, const struct dvm_opts *o,
             void *mem, size_t memlen, char *err, size_t errlen);

/* dvm_enabled: whether a table probe has any enabling; a hook may test this before building
 * its context and arguments. */
static inline int dvm_enabled(const struct dvm_state *st, uint32_t id)
{
    return id < DVM_PROBE_TABLE_MAX && st->probe_map && st->probe_map[id] != 0;
}

/* dvm_stats_total: the CPUs' counts added up, filled set when any CPU's buffer is full (the
 * fill policy's end). A consumer reads them while firings run: each is a snapshot. */
static inline struct dvm_stats dvm_stats_total(const struct dvm_state *st)
{
    struct dvm_stats sum = { 0 };
    for (unsigned cpu = 0; cpu < st->opts.ncpu; cpu++) {
        const struct dvm_stats *s = &st->stats[cpu];
        sum.drops += s->drops;
        sum.aggdrops += s->aggdrops;
        sum.dynvardrops += s->dynvardrops;
        sum.errors += s->errors;
        sum.specdrops += s->specdrops;
        sum.specfailed += s->specfailed;
        sum.fired += s->fired;
        sum.filled |= s->filled;
    }
    return sum;
}

/* dvm_fire: runs every enabled clause of probe `id` (dprobes.h id or timer id) on ctx->cpu.
 * A firing nested inside another on the same CPU is dropped and counted, never recursed. */
void dvm_fire(struct dvm_state *st, const struct dvm_ctx *ctx, uint32_t id,
              const uint64_t args[DVM_NARGS]);
/* dvm_fire_probe: dvm_fire for the object's probe index pidx (its dif_probe), for a provider
 * whose probes have ids outside the table (fbt: the kernel maps each probe site to the index
 * once, at enabling). */
void dvm_fire_probe(struct dvm_state *st, const struct dvm_ctx *ctx, uint32_t pidx,
                    const uint64_t args[DVM_NARGS]);
/* dvm_fire_begin: fires BEGIN (no arguments); the clauses after one that ran exit( ) do not
 * run, as in DTrace's kernel. Callers fire BEGIN through this, not dvm_fire. */
void dvm_fire_begin(struct dvm_state *st, const struct dvm_ctx *ctx);

/* dvm_buf_read: hands the consumer the records of one CPU's principal buffer, oldest first,
 * through cb. switch: swaps the pair and reads the now inactive one; fill: reads everything
 * when the buffer is filled or `final`; ring: reads everything only when `final`. */
typedef void (*dvm_rec_cb)(void *arg, const struct dvm_rechdr *rec);
void dvm_buf_read(struct dvm_state *st, unsigned cpu, int final, dvm_rec_cb cb, void *arg);
/* dvm_trigger_taken: the host acted on the pending trigger (trig_*): the next one may claim. */
void dvm_trigger_taken(struct dvm_state *st);
/* dvm_buf_peek: the records CPU cpu's principal buffer holds and no read has taken yet, each to
 * cb, oldest first, left in place (an incident record's copy, kernel/kincident.c). */
void dvm_buf_peek(const struct dvm_state *st, unsigned cpu, dvm_rec_cb cb, void *arg);
/* dvm_agg_restore: CPU cpu's aggregation table made n bytes of entries another engine of the
 * same program held (its table's used bytes, as an incident record keeps them), their hash
 * chains rebuilt: 0, or -1 when they do not fit or are not whole entries of its aggregations. */
int dvm_agg_restore(struct dvm_state *st, unsigned cpu, const uint8_t *bytes, uint32_t n);

/* Aggregation buffers (per CPU). Entry values are laid out per function, see agg.c. */
typedef void (*dvm_agg_cb)(void *arg, unsigned agg, const uint8_t *keys, const int64_t *vals);
void dvm_agg_walk(struct dvm_state *st, unsigned cpu, dvm_agg_cb cb, void *arg);
void dvm_agg_clear(struct dvm_state *st, unsigned agg);          /* values to zero, keys kept */
/* Drops agg's entry whose key is `keys`, which holds `len` bytes: the engine reads no more of
 * it, whatever its caller checked; an entry with a longer key does not match.
 * Returns 0, or -1 when agg is not one of the program's. */
int dvm_agg_remove(struct dvm_state *st, unsigned agg, const uint8_t *keys, size_t len);
/* The longest key among agg's entries (a `len` below it can miss a longer key). */
unsigned dvm_agg_keylen_max(const struct dvm_state *st, unsigned agg);
unsigned dvm_agg_nvals(const struct dif_agg *g);                  /* int64 values per entry */
int64_t dvm_agg_bucket_value(const struct dif_agg *g, unsigned k); /* bucket k's lower bound */
#define DVM_AGG_DELETED 1u

/* Internal entry points shared by vm.c, agg.c and engine.c. */
/* dvm_agg_update: keys[0..sig) hold the key content (sig: a multiple of 4 at most keylen;
 * equal keys have equal sig); the rest of the keylen bytes is taken as zero. */
int dvm_agg_update(struct dvm_state *st, unsigned cpu, unsigned agg, const uint8_t *keys,
                   unsigned keylen, unsigned sig, int64_t v); /* entry offset, or -1: drop */
/* dvm_agg_add_bucket: adds n to the bucket v falls in, in the quantize-family entry at
 * offset off (what an increment adds beyond the update's 1: quantize(v, incr) ...). */
void dvm_agg_add_bucket(struct dvm_state *st, unsigned cpu, unsigned agg, uint32_t off,
                        int64_t v, int64_t n);
/* dvm_agg_update_at: applies v to the live entry at offset off; -1 if it is not one. */
int dvm_agg_update_at(struct dvm_state *st, unsigned cpu, unsigned agg, uint32_t off, int64_t v);
/* dvm_dyn_lookup: the value of the dynamic variable `key`, created (zeroed, from cpu's free
 * chunks) when absent and `create`; NULL if absent or no chunk is free. dvm_dyn_free: deletes
 * it (cpu's firing). */
uint8_t *dvm_dyn_lookup(struct dvm_state *st, unsigned cpu, const uint8_t *key,
                        unsigned keylen, int create);
void dvm_dyn_free(struct dvm_state *st, unsigned cpu, const uint8_t *key, unsigned keylen);
/* dvm_dyn_clean: every chunk freed and not yet free again (dirty or in limbo) free (concurrent:
 * called when no firing runs, as DTrace's cleaner after a sync). Returns how many. */
uint32_t dvm_dyn_clean(struct dvm_state *st);
/* dvm_dyn_memval: addr if [addr, addr+n) lies inside the value of a live element of a
 * struct-valued array (its chunk's value part, within the struct's size), else NULL. Every
 * DIF_ST* into dynamic-variable memory goes through it: a store can reach no chunk header,
 * key, free chunk or other variable's value. */
uint8_t *dvm_dyn_memval(struct dvm_state *st, uintptr_t addr, unsigned n);
uint64_t dvm_spec_alloc(struct dvm_state *st, unsigned cpu); /* speculation(): id or 0 */

#endif
