// SPDX-License-Identifier: MIT
// The kernel's D provider: one loaded D program at a time. KDT_LOAD copies the DIF object into
// a block from the contiguous allocator and lets the engine (trace/d) verify it and lay out its
// buffers in the same block, which is then mapped read-only into the consumer. KDT_GO fires
// BEGIN and turns the probes on: the trace hooks call kdt_fire() for their probe ids
// (d/dprobes.h); the engine runs the enabled clauses, predicates first, so a false predicate
// records nothing. KDT_READ hands the consumer the records of a principal buffer; KDT_STOP
// fires END. The firings, their lock and their state: kdt_fire.c.
#include <kernel/kdtrace.h>
#include <kernel/ktrace.h>
#include <kernel/kview.h>
#include <kernel/arch.h>
#include <kernel/board.h>
#include <d/dvm.h>
#include <d/dprinfo.h>
#include <trace/period_due.h>
#include <d/dprobes.h>
#include <d/dstacks.h>
#include <d/dutext.h>
#include <kernel/kstack.h>
#include <kernel/smp.h>
#include <kernel/kfbt.h>
#include <kernel/kusdt.h>
#include <kernel/kpid.h>
#include <kernel/ktrace_kcall.h>
#include <kernel/kprof.h>
#include <kernel/kdata.h>
#include <uapi/kdtrace.h>
#include <d/dobj_file.h>

static void *block;
static uint32_t block_len;

void kdt_settle(void)
{
    if (kdt_active && kdt_dst && kdt_dst->exiting) {
        kdt_active = false;
        kprof_update();
    }
}

static void unmap(void)
{
    if (kdt_consumer) {
        kdt_consumer->map2_base = kdt_consumer->map2_len = 0;
        if (k_current && k_current->proc == kdt_consumer)
            arch_mpu_switch(kdt_consumer);
    }
    // Off the other CPUs' tables too: a thread of the consumer may read it there from EL0
    // until its CPU switches again (kernel/kunmap.c).
    if (block)
        kview_unmap_others((uint32_t)(uintptr_t)block, block_len);
}

static void unload(void)
{
    kdt_active = false;
    kfbt_disable();
    kusdt_disable();
    kpid_disable();
    kdt_spin_probes(false);
    klockstat_d_stop();
    unmap();
    if (block) {
        // Cleared before reuse: the next owner of this memory (a trace ring, another
        // consumer's block) must not read this program's buffers and variables.
        kmemset(block, 0, block_len);
        kview_free(block);
    }
    block = NULL;
    kdt_dst = NULL;
    kdt_consumer = NULL;
    kdt_ntimers = 0;
    kdt_cpu_only = 0;
    kprof_update();
}

void kdt_proc_gone(struct proc *p)
{
    if (block && kdt_consumer == p)
        unload();
    kpid_proc_gone(p);      // the pid probes on p come off its program's text
}

// The largest compiled program KDT_LOAD takes: KDT_OBJ_MAX, or the board's own where its
// memory has room for a larger block (BOARD_KDT_OBJ_MAX in boards/<b>/board.mk: a heavy program
// on every fbt probe, docs/fbt.md, "Heavy programs").
#ifdef BOARD_KDT_OBJ_MAX
#define KDT_OBJ_LIMIT ((uint32_t)(BOARD_KDT_OBJ_MAX))
#else
#define KDT_OBJ_LIMIT KDT_OBJ_MAX
#endif

static uint32_t align8(uint32_t v)
{
    return (v + 7u) & ~7u;
}

static void copy_err(struct proc *p, const struct kdt_load *l, const char *msg)
{
    if (!l->errlen || !proc_can_write(p, l->errbuf, l->errlen))
        return;
    kstrlcpy((char *)(uintptr_t)l->errbuf, msg, l->errlen);
}

// A refusal of KDT_LOAD: its reason in the consumer's buffer (every refusal has one), e.
static int refuse(struct proc *p, const struct kdt_load *l, int e, const char *msg)
{
    copy_err(p, l, msg);
    return e;
}

// The block of a program refused after it was made: cleared as unload clears it (the refused
// object and what the engine wrote of its state must not show through in the next ring or
// block made of this memory) and given back.
static void block_drop(void)
{
    kmemset(block, 0, block_len);
    kview_free(block);
    klockstat_d_stop();
    block = NULL;
    kdt_dst = NULL;
    kdt_ntimers = 0;
}

static void spin_relax(void)
{
    kspin_relax();
}

// The options of KDT_LOAD checked before any memory is taken: 0, or the refusal (its reason in
// the consumer's buffer).
static int options_check(struct proc *p, const struct kdt_load *l)
{
    char err[128];

    if (!l->objlen || l->objlen > KDT_OBJ_LIMIT) {
        ksnprintf(err, sizeof(err), "the compiled program is %u bytes: this kernel loads 1 to "
                  "%u (BOARD_KDT_OBJ_MAX in the board's board.mk raises it)",
                  (unsigned)l->objlen, (unsigned)KDT_OBJ_LIMIT);
        return refuse(p, l, -EINVAL, err);
    }
    if (!proc_can_read(p, l->obj, l->objlen))
        return refuse(p, l, -EFAULT, "the compiled program is not in the caller's memory");
    if (l->bufpolicy > DVM_BUF_RING)
        return refuse(p, l, -EINVAL, "bufpolicy: not switch, fill or ring");
    if (l->nspec > DVM_MAXSPEC)
        return refuse(p, l, -EINVAL, "nspec: more speculations than the engine keeps "
                      "(DVM_MAXSPEC)");
    if (l->bufsize > (1u << 20) || l->aggsize > (1u << 20) || l->dynvarsize > (1u << 20) ||
        l->specsize > (1u << 20))
        return refuse(p, l, -EINVAL, "bufsize, aggsize, dynvarsize and specsize are at most "
                      "1m each");
    if (l->cpu_only && l->cpu_only - 1u >= k_ncpus) {
        char msg[32] = "cpu option: no CPU ";
        size_t at = sizeof("cpu option: no CPU ") - 1u;
        unsigned c = l->cpu_only - 1u;
        if (c >= 10u)
            msg[at++] = (char)('0' + c / 10u % 10u);
        msg[at++] = (char)('0' + c % 10u);
        msg[at] = '\0';
        return refuse(p, l, -EINVAL, msg);
    }
    return 0;
}

// The bytes the block asks for: the engine's state, the object, the buffers, the tables, what
// the options add up to (with bufresize=auto the engine lowers bufsize to fit a smaller block).
// Principal buffers, aggregations and speculations are per CPU, as in DTrace.
static uint32_t block_need(const struct kdt_load *l, unsigned ncpu)
{
    // The engine's own tables beside the fixed 16 KB (trace/d/engine.c's dvm_load) grow with
    // the program: a chain link per enabling and a cached aggregation entry per enabling and
    // CPU (4,500 enablings on four AArch64 CPUs are 430 KB), eight strings of scratch per CPU,
    // and the stack table of stack( ) and ustack( ). Read from the object's header, not yet
    // verified, so each bounded: enablings by what the object's size can hold (8 bytes each),
    // strsize by DIF_STRSIZE_MAX.
    struct dif_hdr oh = { 0 };
    if (l->objlen >= sizeof(oh))
        kmemcpy(&oh, (const void *)(uintptr_t)l->obj, sizeof(oh));
    uint32_t necbs = oh.dh_necbs, strsize = (oh.dh_strsize + 7u) & ~7u;
    if (necbs > l->objlen / sizeof(struct dif_ecb))
        necbs = l->objlen / sizeof(struct dif_ecb);
    if (strsize > DIF_STRSIZE_MAX)
        strsize = DIF_STRSIZE_MAX;
    return align8(sizeof(struct dvm_state)) + align8(l->objlen) +
           ncpu * ((l->bufpolicy == DVM_BUF_SWITCH ? 2u : 1u) * l->bufsize + l->aggsize +
                   l->nspec * l->specsize + 8u * strsize) + l->dynvarsize + 16384u +
           (necbs + 1u) * (uint32_t)(sizeof(struct dvm_ecb_link) +
                                     ncpu * sizeof(struct dvm_constagg)) +
           DVM_STACKTAB_SIZE + DVM_STACKTAB_SIZE / 32u;
}

// The block made (block, block_len): need bytes, or with bufresize=auto the largest half of
// them down to 16 KB the allocator has. 0, or the refusal.
static int block_make(struct proc *p, const struct kdt_load *l, uint32_t need)
{
    char err[128];
    uint32_t size = 0, align = 0;

    if (klockstat_d_start() < 0)  // lockstat's per-thread words, before the block takes all
        return refuse(p, l, -ENOMEM, "no memory for the D provider's per-thread words");
    for (uint32_t want = need; want >= 16384u; want /= 2) {
        arch_map_layout(want, &size, &align);
        block = kview_alloc(size, align);
        if (block || l->bufresize_manual)
            break;
    }
    if (!block) {
        klockstat_d_stop();
        ksnprintf(err, sizeof(err), "no memory for the program's block (%u bytes%s): lower "
                  "bufsize, aggsize, dynvarsize, nspec or specsize", (unsigned)need,
                  l->bufresize_manual ? ", bufresize=manual" : "");
        return refuse(p, l, -ENOMEM, err);
    }
    block_len = size;
    return 0;
}

// The kernel's reads and services the engine calls through its hooks (d/dvm.h), for the
// program of consumer p.
static void engine_hooks_set(struct proc *p)
{
    kdt_dst->scrub = !(p->app->flags & KAPP_F_PRIV);  // no kernel pointer left in its mapping
    kdt_dst->consumer_pid = p->pid;     // $pid in a program compiled for the board
    dvm_uread = kdt_uread;
    dvm_user_ok = kdt_user_ok;  // copyin, copyinstr, ustack: the consumer's processes only
    dvm_kread = kdt_kread;      // `name: a privileged consumer's
    dvm_nrunnable = kdt_nrunnable; // curthread->t_cpu->cpu_disp->disp_nrunnable
    dvm_stack = kstack_for_d; // stack( ), ustack( ) (kernel/kstack.c)
    dvm_spin_relax = spin_relax; // the engine's few word locks (d/dvm.h, CONCURRENCY)
}

// The loaded program's tick-N / profile-N probes into kdt_timers, all of them or the program is
// refused (a timer left out would never fire, and nothing would say so): 0, or -ENOSPC.
static int timers_take(char *err, size_t n)
{
    kdt_ntimers = 0;
    for (uint32_t i = 0; i < kdt_dst->obj.hdr->dh_nprobes; i++) {
        const struct dif_probe *pr = &kdt_dst->obj.probes[i];
        if (!pr->dp_flags)      // not a timer's (a USDT site's dp_period is its address)
            continue;
        if (kdt_ntimers == KDT_MAX_TIMERS) {
            ksnprintf(err, n, "more than %u tick-N and profile-N probes (this "
                      "kernel runs %u at most)", KDT_MAX_TIMERS, KDT_MAX_TIMERS);
            return -ENOSPC;
        }
        kdt_timers[kdt_ntimers].id = pr->dp_id;
        kdt_timers[kdt_ntimers].flags = pr->dp_flags;
        kdt_timers[kdt_ntimers].period_ns = pr->dp_period;
        kdt_ntimers++;
    }
    return 0;
}

static int load(struct proc *p, uint32_t uargs)
{
    struct kdt_load l;
    char err[128];

    if (proc_copy_in(p, &l, uargs, sizeof(l)) < 0)
        return -EFAULT;     // (no buffer to say so in)
    if (block)
        return refuse(p, &l, -EEXIST, "a D program is already loaded (one at a time)");
    int e = options_check(p, &l);
    if (e < 0)
        return e;
    unsigned ncpu = k_ncpus < DVM_MAXCPU ? k_ncpus : DVM_MAXCPU;
    if ((e = block_make(p, &l, block_need(&l, ncpu))) < 0)
        return e;
    kmemset(block, 0, sizeof(struct dvm_state));
    kdt_dst = (struct dvm_state *)block;
    uint8_t *objcopy = (uint8_t *)block + align8(sizeof(struct dvm_state));
    kmemcpy(objcopy, (const void *)(uintptr_t)l.obj, l.objlen);
    uint8_t *mem = objcopy + align8(l.objlen);
    struct dvm_opts o = {
        .bufsize = l.bufsize, .aggsize = l.aggsize, .dynvarsize = l.dynvarsize,
        .bufpolicy = l.bufpolicy, .bufresize_manual = l.bufresize_manual, .ncpu = ncpu,
        .nspec = l.nspec, .specsize = l.specsize,
        .concurrent = ncpu > 1,     // firings on the CPUs at once (kdt_fire.c, LOCKING)
    };
    if (dvm_load(kdt_dst, objcopy, l.objlen, &o, mem, block_len - (uint32_t)(mem - (uint8_t *)block),
                 err, sizeof(err)) < 0) {
        copy_err(p, &l, err);
        block_drop();
        return -EINVAL;
    }
    engine_hooks_set(p);
    if ((e = timers_take(err, sizeof(err))) < 0) {
        copy_err(p, &l, err);
        block_drop();
        return e;
    }
    kmemset(&kdt_dobj_hdr, 0, sizeof(kdt_dobj_hdr));
    if (l.dobj_hdr)     // (unreadable: left empty)
        proc_copy_in(p, &kdt_dobj_hdr, l.dobj_hdr, sizeof(kdt_dobj_hdr));
    kdt_cpu_only = l.cpu_only;
    kdt_consumer = p;
    p->map2_base = (uint32_t)(uintptr_t)block;
    p->map2_len = block_len;
    arch_mpu_switch(p);
    return 0;
}

struct read_ctx {
    uint8_t *dst;
    uint32_t len, off;
};

static void read_one(void *arg, const struct dvm_rechdr *rec)
{
    struct read_ctx *r = arg;
    if (r->off + rec->rh_size <= r->len) {
        kmemcpy(r->dst + r->off, rec, rec->rh_size);
        r->off += rec->rh_size;
    }
}

static int read_records(struct proc *p, uint32_t cpu, uint32_t buf, uint32_t len)
{
    if (cpu >= kdt_dst->opts.ncpu)
        return -EINVAL;
    if (len < kdt_dst->buf[cpu].size)
        return -ENOSPC;     // a record that does not fit would be lost: refuse instead
    if (!proc_can_write(p, buf, len))
        return -EFAULT;
    struct read_ctx r = { (uint8_t *)(uintptr_t)buf, len, 0 };
    dvm_buf_read(kdt_dst, cpu, !kdt_active, read_one, &r);
    return (int)r.off;
}

// fbt's probes are the kernel's functions, their arguments kernel pointers and any process's
// values: DTrace's dtrace_kernel privilege. A consumer without KAPP_F_PRIV that enables one
// is refused at KDT_GO (EPERM), naming the first such probe in msg, and nothing is placed.
// msg is the caller's (on its stack: no kernel RAM is kept for a message, which the smallest
// board has none of to spare).
static int fbt_allowed(const struct proc *p, char *msg, size_t n, const char **why)
{
    if (p->app->flags & KAPP_F_PRIV)
        return 0;
    for (uint32_t k = 0; k < kdt_dst->obj.hdr->dh_nprobes; k++) {
        const struct dif_probe *pr = &kdt_dst->obj.probes[k];
        if (!DPROBE_IS_FBT(pr->dp_id))
            continue;
        ksnprintf(msg, n, "fbt:kernel:%s:%s: kernel probes need privilege "
                  "(KAPP_F_PRIV)", dif_str(&kdt_dst->obj, pr->dp_func),
                  pr->dp_id & 1u ? "return" : "entry");
        *why = msg;
        return -EPERM;
    }
    return 0;
}

// `name reads kernel data: privileged too. The program's instructions name the subroutine.
static int kvar_allowed(const struct proc *p, const char **why)
{
    if (p->app->flags & KAPP_F_PRIV)
        return 0;
    for (uint32_t i = 0; i < kdt_dst->obj.hdr->dh_ninsns; i++)
        if (DIF_OP(kdt_dst->obj.insns[i]) == DIF_CALL && DIF_IDX(kdt_dst->obj.insns[i]) == DIF_S_KVAR) {
            *why = "kernel variables (`name) need privilege (KAPP_F_PRIV)";
            return -EPERM;
        }
    return 0;
}

// panic( ) and breakpoint( ) stop the whole system: DTrace's kernel-destructive actions, which
// need the destructive option (-w) and the kernel's privilege; here a KAPP_F_PRIV consumer
// whose .dobj header says -w. Refused at KDT_GO otherwise, naming what is missing.
static int triggers_allowed(const struct proc *p, const char **why)
{
    if (dif_destructive(&kdt_dst->obj) < 2)
        return 0;
    if (!kdt_dobj_hdr.destructive) {
        *why = "Destructive actions not allowed: panic( ) and breakpoint( ) need -w";
        return -EPERM;
    }
    if (!(p->app->flags & KAPP_F_PRIV)) {
        *why = "panic( ) and breakpoint( ) need privilege (KAPP_F_PRIV)";
        return -EPERM;
    }
    return 0;
}

// The probes of the loaded program placed, in the order they go on: fbt's sites first, then
// the programs' USDT sites, then their pid probes; all or none. The fbt sites placed, or the
// refusal with its reason in *why. Not inlined: kfbt_enable and kpid_enable return into a
// frame of its own, where gdb's oracle of the fbt and pid tests (test/qemu/fbt_gdb.py) opens
// its window with a FinishBreakpoint, which does not stop on a return into an inlined caller.
static __attribute__((noinline)) int probes_enable(struct proc *p, char *fbtmsg, size_t n,
                                                   const char **why)
{
    int e = fbt_allowed(p, fbtmsg, n, why);
    if (e == 0)
        e = kvar_allowed(p, why);
    if (e == 0)
        e = triggers_allowed(p, why);
    if (e == 0)
        e = kfbt_enable(kdt_dst, why);
    int u = e < 0 ? 0 : kusdt_enable(kdt_dst, kdt_consumer, why);
    if (u == 0 && e >= 0 && (u = kpid_enable(kdt_dst, kdt_consumer, why)) < 0)
        kusdt_disable();
    if (u < 0) {
        kfbt_disable();
        e = u;
    }
    return e;
}

// Each timer's first time on every CPU: tick-N a period from the go at now; profile-N at its
// period's next multiple since boot, the times dtrace -i holds a capture's samples to
// (trace/period_due.h).
static void timers_start(uint64_t now)
{
    for (unsigned i = 0; i < kdt_ntimers; i++) {
        uint64_t first = kdt_timers[i].flags & DIF_PRF_PROFILE
                             ? period_first_due(kdt_timers[i].period_ns, now)
                             : now + kdt_timers[i].period_ns;
        for (unsigned c = 0; c < KMAX_CPUS; c++)
            kdt_timers[i].next_ns[c] = first;
    }
}

// The hooks the program's enabled probes need (d/dprobes.h dprobe_hooks): the classes whose
// sites fire them, the traced exit's D side; a program that reads vtimestamp switches its
// clocks at each RUNNING event (PR_TH). Only these are turned on (ktrace_sync), so a probe
// with no enabling costs nothing at its site. And whether a lockstat probe is enabled, for
// the SYNC_* calls' sites.
static void hooks_set(void)
{
    uint32_t h = kdt_dst->uses & DVM_USES_VTIMESTAMP ? DPROBE_H_PR_TH : 0u;
    bool lockstat = false;
    for (uint32_t i = 0; i < kdt_dst->obj.hdr->dh_nprobes; i++) {
        uint32_t id = kdt_dst->obj.probes[i].dp_id;
        if (!dvm_enabled(kdt_dst, id))
            continue;
        h |= dprobe_hooks(id);
        lockstat |= id >= DPROBE_LOCK_ADAPTIVE_ACQUIRE && id <= DPROBE_LOCK_SEM_RELEASE;
    }
    kdt_hooks = h;
    kdt_lockstat = lockstat;
}

_Static_assert(DPROBE_H_KER_CALL == 1u << KEV_C_KER_CALL && DPROBE_H_INT == 1u << KEV_C_INT &&
               DPROBE_H_PR_TH == 1u << KEV_C_PR_TH && DPROBE_H_SYSTEM == 1u << KEV_C_SYSTEM &&
               DPROBE_H_USER == 1u << KEV_C_USER && DPROBE_H_COMM == 1u << KEV_C_COMM,
               "a probe's hook bits are its classes' (trace/kev.h)");

// KDT_GO: the probes placed (the reason in the consumer's buffer (a, b) when they cannot be),
// the timers started, BEGIN fired. The fbt sites placed, or the refusal.
static int go(struct proc *p, uint32_t a, uint32_t b)
{
    if (kdt_active)
        return -EBUSY;
    kdt_wall_base_read(kview_ns(board_cycles()));
    const char *why = "";
    char fbtmsg[112];
    int placed = probes_enable(p, fbtmsg, sizeof(fbtmsg), &why);
    if (placed < 0) {
        if (b && proc_can_write(p, a, b))
            kstrlcpy((char *)(uintptr_t)a, why, b);
        return placed;
    }
    kdt_cost_reset();
    kdt_hold();
    uint64_t mark = kdt_span_mark(KEV_DPROG_GO);
    kdt_go_clocks(k_current);   // vtimestamp's clocks, D's view of the CPUs
    timers_start(kview_ns(mark));
    hooks_set();
    kdt_active = true;
    kdt_release();
    kdt_spin_probes(true);
    if (!kdt_fire_begin(mark))  // BEGIN's clauses ran exit()
        kdt_active = false;
    kprof_update();     // the profile timers armed for the probes' first times
    return placed;
}

// KDT_STOP: END runs once, even after exit() switched the probes off; the fbt probes come off
// first, as DTrace disables its probes before END.
static int stop(void)
{
    kfbt_disable();
    kusdt_disable();
    kpid_disable();
    bool was = kdt_active;
    kdt_active = true;
    kdt_hold();
    kdt_span_mark(KEV_DPROG_STOP);
    if (was || kdt_dst->exiting)
        kdt_fire(DPROBE_END, 0, 0, 0, 0);   // at the mark's time (the hold's site)
    kdt_cost_stop();
    kdt_release();
    kdt_active = false;
    kdt_spin_probes(false);
    kprof_update();
    kstack_report(kdt_dst->stacks.drops); // walks cut short, stacks lost (kernel/kstack.c)
    return 0;
}

// KDT_AGGREMOVE: the keys must be inside the engine's own block (the consumer passes back what
// it read from its mapping), all of them: as many bytes as the longest key of the aggregation,
// which is what the lookup compares (else it would read past the block).
static int agg_remove(uint32_t agg, uint32_t keys)
{
    uint32_t base = (uint32_t)(uintptr_t)block;
    if (agg >= kdt_dst->obj.hdr->dh_naggs || keys < base || keys - base >= block_len ||
        dvm_agg_keylen_max(kdt_dst, agg) > block_len - (keys - base))
        return -EINVAL;
    dvm_agg_remove(kdt_dst, agg, (const uint8_t *)(uintptr_t)keys, block_len - (keys - base));
    return 0;
}

int kdt_call(struct thread *t, uint32_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
    struct proc *p = t->proc;
    if (!(p->app->flags & KAPP_F_TRACE))
        return -EPERM;
    if (cmd == KDT_LOAD)
        return load(p, a);
    if (cmd == KDT_FBT_TABLE)   // every kernel function's address: kernel data, privileged
        return p->app->flags & KAPP_F_PRIV ? kfbt_copy_table(p, a, b) : -EPERM;
    if (cmd == KDT_COST) {
        struct kdt_cost k;
        if (!block)
            return -ECANCELED;
        if (p != kdt_consumer)
            return -EPERM;
        kdt_cost_read(&k);
        return proc_copy_out(p, a, &k, sizeof(k));
    }
    if (cmd < KDT_LOAD || cmd > KDT_AGGREMOVE)
        return -EINVAL;
    if (!block)
        return -ECANCELED;
    if (p != kdt_consumer)
        return -EPERM;
    switch (cmd) {
    case KDT_GO:
        return go(p, a, b);
    case KDT_STOP:
        return stop();
    case KDT_READ:
        // exclusive: no firing runs, so every dynamic variable deleted since is free again
        // (the engine reuses them sooner itself once the firings that may hold them ended)
        dvm_dyn_clean(kdt_dst);
        return read_records(p, a, b, c);
    case KDT_STATE:
        return (int)(uintptr_t)kdt_dst;
    case KDT_UNLOAD:
        unload();
        return 0;
    case KDT_AGGCLEAR:
        if (a >= kdt_dst->obj.hdr->dh_naggs)
            return -EINVAL;
        dvm_agg_clear(kdt_dst, a);
        return 0;
    case KDT_AGGREMOVE:
        return agg_remove(a, b);
    default:
        return -EINVAL;
    }
}
