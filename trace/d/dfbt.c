// SPDX-License-Identifier: MIT
// Reading the fbt table (d/dfbt.h): every offset, size and name checked before use, so a
// damaged table (a file from another build, a truncated copy) is refused with a reason
// instead of being read past its end. Freestanding: the kernel, the board's dtrace and the
// host tools share it.
#include <d/dfbt.h>
#include "dutil.h"

static int bad(char *err, size_t errlen, const char *msg)
{
    if (errlen)
        d_strlcpy(err, msg, errlen);
    return -1;
}

// A range [off, off + n * size) inside len bytes, computed without overflow.
static int inside(uint32_t off, uint32_t n, uint32_t size, size_t len)
{
    uint64_t end = (uint64_t)off + (uint64_t)n * size;
    return off <= len && end <= len;
}

int dfbt_open_desc(struct dfbt *t, const void *buf, size_t len, char *err, size_t errlen)
{
    const struct dfbt_hdr *h = buf;
    if (!buf || len < sizeof(*h) || ((uintptr_t)buf & 3u))
        return bad(err, errlen, "fbt table: too short or misaligned");
    if (h->dh_magic != DFBT_MAGIC)
        return bad(err, errlen, "fbt table: bad magic (no fbt table in this kernel)");
    if (h->dh_version != DFBT_VERSION)
        return bad(err, errlen, "fbt table: unknown version");
    if (h->dh_desc_len > len || h->dh_desc_len < sizeof(*h) || h->dh_nfuncs > DFBT_MAXFUNCS ||
        !inside(h->dh_funcs_off, h->dh_nfuncs, sizeof(struct dfbt_func), h->dh_desc_len) ||
        (h->dh_funcs_off & 3u) || !inside(h->dh_strs_off, h->dh_strs_len, 1, h->dh_desc_len) ||
        (h->dh_strs_len && ((const char *)buf)[h->dh_strs_off + h->dh_strs_len - 1] != 0))
        return bad(err, errlen, "fbt table: description out of bounds");
    t->hdr = h;
    t->funcs = (const struct dfbt_func *)((const uint8_t *)buf + h->dh_funcs_off);
    t->strs = (const char *)buf + h->dh_strs_off;
    t->nfuncs = h->dh_nfuncs;
    t->sites = NULL;
    t->slots = NULL;
    t->nsites = 0;
    for (uint32_t f = 0; f < t->nfuncs; f++) {
        const struct dfbt_func *fn = &t->funcs[f];
        if (fn->df_name >= h->dh_strs_len || fn->df_nargs > DFBT_MAXARGS ||
            fn->df_entry_why >= DFBT_WHY_COUNT || fn->df_return_why >= DFBT_WHY_COUNT ||
            (f && fn->df_addr < t->funcs[f - 1].df_addr))
            return bad(err, errlen, "fbt table: bad function record");
    }
    return 0;
}

int dfbt_open(struct dfbt *t, const void *buf, size_t len, char *err, size_t errlen)
{
    if (dfbt_open_desc(t, buf, len, err, errlen) != 0)
        return -1;
    const struct dfbt_hdr *h = t->hdr;
    if (len == h->dh_desc_len)  // a description alone (the board's copy)
        return 0;
    if (h->dh_len != len || (h->dh_sites_off & 3u) ||
        !inside(h->dh_sites_off, h->dh_nsites, sizeof(struct dfbt_site), len) ||
        !inside(h->dh_slots_off, h->dh_slots_len, 1, len))
        return bad(err, errlen, "fbt table: sites out of bounds");
    t->sites = (const struct dfbt_site *)((const uint8_t *)buf + h->dh_sites_off);
    t->slots = (const uint8_t *)buf + h->dh_slots_off;
    t->nsites = h->dh_nsites;
    for (uint32_t s = 0; s < t->nsites; s++) {
        const struct dfbt_site *st = &t->sites[s];
        const struct dfbt_func *fn = st->ds_func < t->nfuncs ? &t->funcs[st->ds_func] : NULL;
        uint64_t slot_end = (uint64_t)h->dh_addr + h->dh_slots_off + h->dh_slots_len;
        if (!fn || st->ds_addr < fn->df_addr || st->ds_addr - fn->df_addr >= fn->df_size ||
            !st->ds_len || st->ds_len > 4 || (s && st->ds_addr <= t->sites[s - 1].ds_addr) ||
            (st->ds_slot && (st->ds_slot < h->dh_addr + h->dh_slots_off ||
                             st->ds_slot + DFBT_SLOT_BYTES > slot_end)))
            return bad(err, errlen, "fbt table: bad site record");
    }
    for (uint32_t f = 0; f < t->nfuncs; f++)
        if (!inside(t->funcs[f].df_site, t->funcs[f].df_nsites, 1, t->nsites))
            return bad(err, errlen, "fbt table: bad function sites");
    return 0;
}

const char *dfbt_name(const struct dfbt *t, uint32_t f)
{
    return f < t->nfuncs ? t->strs + t->funcs[f].df_name : "";
}

int dfbt_lookup(const struct dfbt *t, uint64_t addr)
{
    uint32_t lo = 0, hi = t->nfuncs;
    while (lo < hi) {   // the last function starting at or below addr
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->funcs[mid].df_addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return -1;
    const struct dfbt_func *f = &t->funcs[lo - 1];
    return addr - f->df_addr < f->df_size ? (int)(lo - 1) : -1;
}

const char *dfbt_why_text(unsigned why)
{
    static const char *const text[DFBT_WHY_COUNT] = {
        [DFBT_OK] = "",
        [DFBT_WHY_ENTRY_PATH] = "it is part of the exception entry or exit",
        [DFBT_WHY_PROBE_PATH] = "it runs in the probe path (the fbt trap, the D provider or "
                                "the D engine)",
        [DFBT_WHY_RING] = "it writes the trace ring",
        [DFBT_WHY_LOCK] = "it is lock code",
        [DFBT_WHY_BOOT] = "it runs during early boot",
        [DFBT_WHY_NOTRAP] = "it runs where the probe's trap cannot be taken",
        [DFBT_WHY_CALLEE] = "it is called from code that cannot be probed",
        [DFBT_WHY_INSN] = "its first instruction cannot be displaced",
        [DFBT_WHY_LOOP] = "a branch inside it jumps back to its first instruction",
        [DFBT_WHY_NORETURN] = "it never returns",
        [DFBT_WHY_EXIT] = "it can leave by an instruction that cannot be replaced",
        [DFBT_WHY_NODATA] = "it holds no code the table's decoder reads",
        [DFBT_WHY_PART] = "it is a part of another function the compiler placed apart, "
                          "entered by a jump",
    };
    return why < DFBT_WHY_COUNT ? text[why] : "unknown reason";
}

const char *dfbt_type_name(unsigned type)
{
    if (type & DFBT_T_PTR)
        return "void *";
    if (type & DFBT_T_BOOL)
        return "_Bool";
    int s = (type & DFBT_T_SIGNED) != 0;
    switch (DFBT_T_SIZE(type)) {
    case 1: return s ? "int8_t" : "uint8_t";
    case 2: return s ? "int16_t" : "uint16_t";
    case 4: return s ? "int32_t" : "uint32_t";
    case 8: return s ? "int64_t" : "uint64_t";
    default: return "";
    }
}
