// SPDX-License-Identifier: MIT
// The fbt trap (kernel/kfbt.h): the architecture's kernel fault path asks kfbt_trap whether
// the faulting instruction is an fbt site's trap. A placed site (in the live hash) fires its
// probes: entry with the function's arguments where the table says they are, return with the
// returning instruction's offset and the return value; with the trace's SYSTEM class on, each
// firing is also recorded (FUNC_ENTER / FUNC_EXIT, trace/kev.h), under the D lock so that D
// and the capture see firings in one order. Any site resumes in its slot, the displaced
// instruction's out-of-line code: a site no longer placed (its trap fetched before the
// removal) just resumes, and a trap met while this CPU is already firing (which the rules'
// trees rule out, docs/fbt.md) resumes without firing, counted.
//
// Runs in the trap: interrupts off, on the trapped CPU, inside whatever kernel entry (and
// locks) the trapped code was in; takes the D lock (a leaf) and the ring's own locks. Several
// CPUs may trap at once (in shared mode): what a firing writes is its CPU's own (firing[],
// its dvm context) or under the D lock (kdt_fire_probe, kdt_hold: reentrant per CPU, so the
// event and its probe are one critical section); the hash and table are only read; the
// figures are atomic.
#include <kernel/kfbt.h>
#include <kernel/arch_trace.h>
#include <kernel/kdtrace.h>
#include <kernel/ktrace.h>
#include <kernel/kev_emit.h>
#include <kernel/kstack.h>
#include <d/dvm.h>
#include <d/dprobes.h>

static const struct kfbt_live *live_find(const struct kfbt_sites *ks, uintptr_t pc)
{
    if (!ks->live)
        return NULL;
    for (uint32_t i = kfbt_hash((uint32_t)pc, ks->mask);; i = (i + 1) & ks->mask) {
        uint16_t s = ks->live[i].site;
        if (!s)
            return NULL;
        if (ks->table->sites[s - 1u].ds_addr == pc)
            return &ks->live[i];
    }
}

// The image's table, checked once (kernel/kfbt.h).
extern const uint8_t __fbt_start[];   // ldscripts/kernel.ld.S: the table's address

static struct dfbt table;
static int table_state;   // 0 not looked at, 1 good, -1 none or damaged

const struct dfbt *kfbt_table(void)
{
    if (!table_state) {
        const struct dfbt_hdr *h = (const struct dfbt_hdr *)__fbt_start;
        char err[64];
        table_state = h->dh_magic == DFBT_MAGIC && h->dh_nsites &&
                      dfbt_open(&table, __fbt_start, h->dh_len, err, sizeof(err)) == 0 &&
                      table.sites && table.hdr->dh_addr == (uint32_t)(uintptr_t)__fbt_start
                          ? 1 : -1;
    }
    return table_state > 0 ? &table : NULL;
}

// What this CPU fires now (written by it alone): its trapped registers and site, for stack( ).
static struct {
    const struct fbt_regs *regs;
    const struct dfbt_site *site;
} firing[KMAX_CPUS];

// The table's site at pc (binary search), or NULL.
static const struct dfbt_site *site_find(const struct dfbt *t, uintptr_t pc)
{
    uint32_t lo = 0, hi = t->nsites;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->sites[mid].ds_addr < pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->nsites && t->sites[lo].ds_addr == pc ? &t->sites[lo] : NULL;
}

static unsigned word_bytes(const struct dfbt *t)
{
    return t->hdr->dh_arch == DFBT_ARCH_A64 ? 8u : 4u;
}

// A value of type `type` from its raw bits, as D's int64_t arguments carry it: sign-extended
// for a signed type, zero-extended otherwise.
static uint64_t typed(uint64_t v, unsigned type, unsigned ws)
{
    unsigned size = (type & DFBT_T_PTR) ? ws : DFBT_T_SIZE(type);
    if (!size || size >= 8)
        return v;
    unsigned sh = 64u - 8u * size;
    return (type & DFBT_T_SIGNED) ? (uint64_t)((int64_t)(v << sh) >> sh) : v << sh >> sh;
}

static uint64_t place_word(const struct fbt_regs *r, uint8_t loc, unsigned ws)
{
    if (loc < DFBT_LOC_STACK)
        return arch_fbt_reg(r, loc);
    uintptr_t a = arch_fbt_entry_cfa(r) + (uintptr_t)(loc - DFBT_LOC_STACK) * ws;
    return ws == 8 ? *(const uint64_t *)a : *(const uint32_t *)a;
}

// Where the caller continues: the site's return address (DFBT_RA_*).
static uint64_t return_address(const struct fbt_regs *r, const struct dfbt_site *s,
                               unsigned ws)
{
    if (s->ds_ra == DFBT_RA_LR)
        return arch_fbt_link(r);
    uintptr_t a = arch_fbt_sp(r) + (uintptr_t)(s->ds_ra - DFBT_RA_SP) * ws;
    return ws == 8 ? *(const uint64_t *)a : *(const uint32_t *)a;
}

// One firing, recorded in the trace too when its SYSTEM class is on.
static void fire(uint32_t pidx, const uint64_t *args, unsigned ev, const uint32_t *w,
                 unsigned nw)
{
    kev_emit_probe_event(KTRACE_ON(KEV_C_SYSTEM), ev, w, nw, pidx, args);  // (kev_emit.h)
}

static void fire_site(const struct fbt_regs *r, const struct dfbt *t,
                      const struct dfbt_site *s, const struct kfbt_live *l)
{
    const struct dfbt_func *f = &t->funcs[s->ds_func];
    unsigned ws = word_bytes(t);
    uint32_t fn = f->df_addr | (t->hdr->dh_arch == DFBT_ARCH_THUMB2 ? 1u : 0u);
    uint32_t ra = (uint32_t)return_address(r, s, ws);
    if (l->entry_pidx) {
        uint64_t args[DVM_NARGS] = { 0 };
        for (unsigned k = 0; k < f->df_nargs; k++) {
            uint8_t lo = f->df_arg_loc[k], hi = f->df_arg_hi[k];
            if (lo == DFBT_LOC_NONE)
                continue;
            uint64_t v = place_word(r, lo, ws);
            if (hi != DFBT_LOC_NONE && ws == 4)
                v = (v & 0xffffffffu) | place_word(r, hi, ws) << 32;
            args[k] = typed(v, f->df_arg_type[k], ws);
        }
        const uint32_t w[2] = { fn, ra };
        fire(l->entry_pidx - 1u, args, KEV_SYS_FUNC_ENTER, w, 2);
    }
    if (l->return_pidx) {
        uint64_t args[DVM_NARGS] = { 0 };
        args[0] = s->ds_addr - f->df_addr;
        // a tail call's value is its callee's, not known yet: 0 (docs/fbt.md)
        if (!(s->ds_kind & DFBT_S_TAIL) && f->df_ret_type != DFBT_T_NONE)
            args[1] = typed(arch_fbt_retval(r), f->df_ret_type, ws);
        const uint32_t w[5] = { fn, ra, (uint32_t)args[0], (uint32_t)args[1],
                                (uint32_t)(args[1] >> 32) };
        fire(l->return_pidx - 1u, args, KEV_SYS_FUNC_EXIT, w,
             DFBT_T_SIZE(f->df_ret_type) > 4 ? 5u : 4u);
    }
}

bool kfbt_trap(struct fbt_regs *r, uintptr_t pc)
{
    const struct kfbt_sites *ks = &kfbt_kernel;
    const struct dfbt *t = kfbt_table();
    if (!t)
        return false;
    const struct kfbt_live *l = live_find(ks, pc);
    const struct dfbt_site *s = l ? &t->sites[l->site - 1u] : site_find(t, pc);
    if (!s || !s->ds_slot)
        return false;
    unsigned me = cpu_id();
    if (!l) {
        __atomic_fetch_add(&kfbt_stats.stale, 1u, __ATOMIC_RELAXED);   // (CPUs trap at once)
    } else if (firing[me].regs) {
        __atomic_fetch_add(&kfbt_stats.nested, 1u, __ATOMIC_RELAXED);
    } else {
        firing[me].regs = r;
        firing[me].site = s;
        fire_site(r, t, s, l);
        firing[me].regs = NULL;
    }
    arch_fbt_resume(r, s->ds_slot);
    return true;
}

int kfbt_stack(uint64_t *pcs, unsigned max)
{
    unsigned me = cpu_id();
    if (!firing[me].regs)
        return -1;
    return (int)arch_fbt_unwind(firing[me].regs, firing[me].site, pcs, max);
}
