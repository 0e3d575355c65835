// SPDX-License-Identifier: MIT
// Placing and removing fbt probes (kernel/kfbt.h, docs/fbt.md). A D program's fbt probes name
// functions of this image's table by index (the probe id) and by name (its dif_probe's
// strings): both must agree, or the program was compiled against another kernel's table and
// nothing is placed. Every site to place is looked up, its bytes checked against the table's,
// its probes entered in the live hash (kfbt_kernel), and only then is its trap written: a trap
// never meets a site the hash does not know. Removal writes the original bytes back, makes
// every CPU see them, and only then frees the hash; a trap fetched before the removal still
// finds its site in the table (kfbt_fire.c) and resumes in its slot.
//
// LOCKING: kfbt_enable and kfbt_disable run in the D consumer's kernel calls, on the exclusive
// side (no other CPU in the kernel: docs/smp.md), with interrupts off. The trap reads
// kfbt_kernel without a lock: it changes only while no CPU runs kernel code (the architecture's
// arch_fbt_patch_end brings the others to the kernel lock and has them resynchronise before
// they run any of it: docs/fbt.md "Placing on several CPUs").
#include <kernel/kfbt.h>
#include <kernel/kstack.h>
#include <kernel/arch_trace.h>
#include <kernel/kview.h>
#include <d/dvm.h>
#include <d/dprobes.h>
#include <d/dif.h>
#include <uapi/kerrno.h>

struct kfbt_sites kfbt_kernel;
struct kfbt_stats kfbt_stats;
static uint32_t live_bytes;

// The live entry of site s, made if new (the hash always has room: twice the sites).
static struct kfbt_live *live_get(struct kfbt_sites *ks, uint32_t s)
{
    uint32_t i = kfbt_hash(ks->table->sites[s].ds_addr, ks->mask);
    while (ks->live[i].site && ks->live[i].site != s + 1u)
        i = (i + 1) & ks->mask;
    if (!ks->live[i].site) {
        ks->live[i].site = (uint16_t)(s + 1u);
        ks->nlive++;
    }
    return &ks->live[i];
}

static bool name_is(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

// The sites probe k of st stands for, counted (n) and, with ks, entered in its hash.
static int probe_sites(const struct dfbt *t, struct dvm_state *st, uint32_t k,
                       struct kfbt_sites *ks, uint32_t *n, const char **why)
{
    const struct dif_probe *p = &st->obj.probes[k];
    uint32_t f = DPROBE_FBT_FUNC(p->dp_id);
    bool ret = p->dp_id & 1u;
    if (f >= t->nfuncs || !name_is(dfbt_name(t, f), st->obj.strs + p->dp_func)) {
        *why = "fbt: the program was compiled for another kernel's fbt table (dtrace "
               "--kernel names the image it runs on)";
        return -EINVAL;
    }
    const struct dfbt_func *fn = &t->funcs[f];
    if ((ret ? fn->df_return_why : fn->df_entry_why) != DFBT_OK) {
        *why = "fbt: the program enables a function that cannot be probed";
        return -EINVAL;
    }
    for (uint32_t s = fn->df_site; s < fn->df_site + fn->df_nsites; s++) {
        uint8_t kind = t->sites[s].ds_kind;
        if (!(kind & (ret ? DFBT_S_RETURN : DFBT_S_ENTRY)))
            continue;
        (*n)++;
        if (!ks)
            continue;
        struct kfbt_live *l = live_get(ks, s);
        if (ret)
            l->return_pidx = (uint16_t)(k + 1u);
        else
            l->entry_pidx = (uint16_t)(k + 1u);
    }
    return 0;
}

static bool site_holds(const struct dfbt_site *s, const uint8_t *bytes)
{
    const uint8_t *at = (const uint8_t *)(uintptr_t)s->ds_addr;
    for (unsigned i = 0; i < s->ds_len; i++)
        if (at[i] != bytes[i])
            return false;
    return true;
}

int kfbt_enable(struct dvm_state *st, const char **why)
{
    const struct dfbt *t = kfbt_table();
    struct kfbt_sites *ks = &kfbt_kernel;
    uint32_t n = 0, nfbt = 0;
    for (uint32_t k = 0; k < st->obj.hdr->dh_nprobes; k++) {
        if (!DPROBE_IS_FBT(st->obj.probes[k].dp_id))
            continue;
        nfbt++;
        if (!t) {
            *why = "fbt: this kernel has no fbt table";
            return -ENOENT;
        }
        int e = probe_sites(t, st, k, NULL, &n, why);
        if (e < 0)
            return e;
    }
    if (!nfbt)
        return 0;
    if (ks->live || n > KFBT_MAX_SITES) {
        *why = ks->live ? "fbt: probes already placed"
                        : "fbt: the program enables more probe sites than the kernel places "
                          "at once (4096)";
        return ks->live ? -EBUSY : -ENOSPC;
    }
    uint32_t cap = 16;
    while (cap < 2u * n)
        cap *= 2;
    live_bytes = cap * (uint32_t)sizeof(struct kfbt_live);
    struct kfbt_live *live = kview_alloc(live_bytes, 8);
    if (!live) {
        *why = "fbt: no memory for the probe sites";
        return -ENOMEM;
    }
    kmemset(live, 0, live_bytes);
    struct kfbt_sites build = { t, live, cap - 1u, 0 };
    for (uint32_t k = 0; k < st->obj.hdr->dh_nprobes; k++)
        if (DPROBE_IS_FBT(st->obj.probes[k].dp_id))
            probe_sites(t, st, k, &build, &n, why);
    // every site as the table says before anything is written
    for (uint32_t i = 0; i <= build.mask; i++) {
        const struct dfbt_site *s = live[i].site ? &t->sites[live[i].site - 1u] : NULL;
        if (s && !site_holds(s, (const uint8_t *)&s->ds_orig)) {
            kview_free(live);
            *why = "fbt: the kernel's text differs from its fbt table at a probe site";
            return -EIO;
        }
    }
    *ks = build;
    kstack_set_fbt(kfbt_stack);     // stack( ) in the probes' firings (kernel/kstack.c)
    uint8_t trap[4];
    arch_fbt_trap_insn(trap);
    arch_fbt_patch_begin();
    for (uint32_t i = 0; i <= ks->mask; i++)
        if (live[i].site)
            arch_fbt_write(t->sites[live[i].site - 1u].ds_addr, trap,
                           t->sites[live[i].site - 1u].ds_len);
    arch_fbt_patch_end();
    kfbt_stats.placed = ks->nlive;
    return (int)ks->nlive;
}

void kfbt_disable(void)
{
    struct kfbt_sites *ks = &kfbt_kernel;
    if (!ks->live)
        return;
    arch_fbt_patch_begin();
    for (uint32_t i = 0; i <= ks->mask; i++)
        if (ks->live[i].site) {
            const struct dfbt_site *s = &ks->table->sites[ks->live[i].site - 1u];
            arch_fbt_write(s->ds_addr, &s->ds_orig, s->ds_len);
        }
    arch_fbt_patch_end();
    struct kfbt_live *live = ks->live;
    ks->live = NULL;   // a trap from now on finds its site in the table (kfbt_fire.c)
    ks->mask = 0;
    ks->nlive = 0;
    kmemset(live, 0, live_bytes);
    kview_free(live);
    kfbt_stats.placed = 0;
}

int kfbt_copy_table(struct proc *p, uint32_t buf, uint32_t len)
{
    const struct dfbt *t = kfbt_table();
    if (!t)
        return -ENOENT;
    uint32_t need = t->hdr->dh_desc_len;
    if (len < need)
        return (int)need;      // the consumer asks again with room
    if (proc_copy_out(p, buf, t->hdr, need) < 0)
        return -EFAULT;
    return (int)need;
}
