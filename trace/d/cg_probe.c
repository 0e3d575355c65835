// SPDX-License-Identifier: MIT
// Probe descriptions: each clause's descriptions matched against the probe table (globs, the
// profile provider's tick-/profile- names, pid and USDT probes from the programs' ELF files),
// making the object's probe and enabling tables; a description matching nothing is an error
// unless -Z.
#include "cg_impl.h"
#include <d/dprobes.h>
#include <d/dfbt.h>

/* timer_period: parses N[unit] of tick-N / profile-N; returns ns or 0 if malformed. */
static uint64_t timer_period(const char *s)
{
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        return 0;
    while (*s >= '0' && *s <= '9') {
        if (v > 1000000000000ull)
            return 0;
        v = v * 10 + (uint64_t)(*s++ - '0');
    }
    if (v == 0)
        return 0;
    static const struct { const char *u; uint64_t ns; } units[] = {
        { "ns", 1 }, { "nsec", 1 }, { "us", 1000 }, { "usec", 1000 }, { "ms", 1000000 },
        { "msec", 1000000 }, { "s", 1000000000ull }, { "sec", 1000000000ull },
        { "m", 60000000000ull }, { "min", 60000000000ull }, { "h", 3600000000000ull },
        { "hour", 3600000000000ull }, { "d", 86400000000000ull }, { "day", 86400000000000ull },
    };
    if (*s == 0 || !strcmp(s, "hz"))
        return v > 1000000000ull ? 0 : 1000000000ull / v;
    for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++)
        if (!strcmp(s, units[k].u))
            return v * units[k].ns;
    return 0;
}

static unsigned probe_add(struct cg *g, uint32_t id, const struct dprobe_desc *d,
                          uint64_t period, uint32_t flags, int line)
{
    for (unsigned k = 0; k < g->nprobes; k++)  /* (pid probes: one per process too) */
        if (g->probes[k].dp_id == id && (!DPROBE_IS_PID(id) || g->probes[k].dp_period == period))
            return k;
    if (g->nprobes == CAP_PROBES)
        dcc_error(g->cc, line, "D_DIF_SIZE", "too many probes: a program enables at most %u",
                  CAP_PROBES);
    struct dif_probe *p = &g->probes[g->nprobes];
    p->dp_id = id;
    p->dp_prov = cg_intern_str(g, d->prov);
    p->dp_mod = cg_intern_str(g, d->mod);
    p->dp_func = cg_intern_str(g, d->func);
    p->dp_name = cg_intern_str(g, d->name);
    p->dp_period = period;
    p->dp_flags = flags;
    const struct dprobe_usdt *u = dprobe_usdt_site(id);
    if (u) {   /* a USDT site: where it is, its semaphore and where its arguments are
                * (docs/usdt.md) */
        p->dp_period = u->addr | (uint64_t)u->sem << 32;
        p->dp_pad = cg_intern_str(g, u->args);
    }
    return g->nprobes++;
}

/* ecbs_grow: twice the enabling table's room, in place when nothing was allocated after it
 * (the arena is a bump allocator), else in a new copy; out of the compiler's memory is an
 * error that names the arena. */
static void ecbs_grow(struct cg *g, int line)
{
    struct d_arena *a = &g->cc->arena;
    size_t have = g->capecbs * sizeof(struct dif_ecb), more = have;
    if ((uint8_t *)g->ecbs + have == a->base + a->used && more <= a->size - a->used) {
        memset(a->base + a->used, 0, more);
        a->used += more;
    } else {
        struct dif_ecb *n = d_alloc(a, have + more);
        if (!n)
            dcc_error(g->cc, line, "D_NOMEM", "out of compiler memory for %u enablings (its "
                      "%u KB arena: a board's DTRACE_CC_ARENA): fewer clauses on wide "
                      "descriptions such as fbt:::entry, or compile it on the host "
                      "(tools/dcompile)", g->necbs + 1u, (unsigned)(a->size / 1024u));
        memcpy(n, g->ecbs, have);
        g->ecbs = n;
    }
    g->capecbs *= 2u;
}

/* ecb_add: one enabling per description matching the probe: a clause whose descriptions
 * name a probe twice runs twice on it, as in DTrace. */
static void ecb_add(struct cg *g, unsigned probe, unsigned clause, int line)
{
    if (g->necbs == CAP_ECBS)
        dcc_error(g->cc, line, "D_DIF_SIZE", "too many enablings: a program enables at most "
                  "%u (each clause once per probe it matches): fewer clauses on wide "
                  "descriptions such as fbt:::entry", CAP_ECBS);
    if (g->necbs == g->capecbs)
        ecbs_grow(g, line);
    g->ecbs[g->necbs].de_probe = probe;
    g->ecbs[g->necbs].de_clause = clause;
    g->necbs++;
}

/* fbt_unprobeable: a description without globs that names a kernel function the fbt table
 * has but cannot probe there says why (docs/fbt.md, "What cannot be probed"). */
static void fbt_unprobeable(struct cg *g, const char *const f[4], int line)
{
    const struct dfbt *t = dprobe_fbt_table();
    if (!t || !f[2][0] || (f[0][0] && strcmp(f[0], "fbt")) ||
        (f[1][0] && strcmp(f[1], DPROBE_FBT_MODULE)) ||
        (f[3][0] && strcmp(f[3], "entry") && strcmp(f[3], "return")))
        return;
    for (uint32_t k = 0; k < t->nfuncs; k++) {
        if (strcmp(dfbt_name(t, k), f[2]) != 0)
            continue;
        const struct dfbt_func *fn = &t->funcs[k];
        int ret = !strcmp(f[3], "return") ||
                  (!f[3][0] && fn->df_entry_why == DFBT_OK);
        unsigned why = ret ? fn->df_return_why : fn->df_entry_why;
        if (why == DFBT_OK)
            continue;
        if (why == DFBT_WHY_CALLEE) { /* name the code that rules it out, and the caller */
            uint32_t root = fn->df_why_func;
            for (unsigned n = 0; n < 64 && root < t->nfuncs &&
                                 t->funcs[root].df_entry_why == DFBT_WHY_CALLEE; n++)
                root = t->funcs[root].df_why_func;
            if (root >= t->nfuncs)
                root = fn->df_why_func;
            int via = root != fn->df_why_func;
            dcc_error(g->cc, line, "D_PDESC_ZERO", "fbt::%s:%s: %s cannot be probed: it is "
                      "called from %s%s%s%s, which %s", f[2], ret ? "return" : "entry", f[2],
                      dfbt_name(t, root), via ? " (through " : "",
                      via ? dfbt_name(t, fn->df_why_func) : "", via ? ")" : "",
                      dfbt_why_text(t->funcs[root].df_entry_why) + 3); /* "it is..." -> "is..." */
        }
        dcc_error(g->cc, line, "D_PDESC_ZERO", "fbt::%s:%s: %s cannot be probed: %s", f[2],
                  ret ? "return" : "entry", f[2], dfbt_why_text(why));
    }
}

/* pid_desc: a description whose provider is pid<PID> or pid$target (after d_target_text,
 * pid__dtrace_target) names functions of the programs' ELF files (--elf): one probe per
 * function the module and function fields match, its address and process in dp_period
 * (d/dprobes.h); :return one per return instruction, the function's start in dp_pad.
 * Returns 0 when the provider is not pid's. */
/* (why the probes past the kernel's site table are left out) */
static const char pid_full[] = "more pid probes than the kernel places at once (1024)";

/* pid_skip: a function a glob matched that cannot be placed, counted for the front end; the
 * one named is the first, or the first left out for the table's size, which a narrower glob
 * mends */
static void pid_skip(struct cg *g, const char *func, const char *why)
{
    struct dcc_out *o = g->cc->out;
    if (!o->pid_skipped++ || (why == pid_full && o->pid_skip_why != pid_full)) {
        d_strlcpy(o->pid_skip_func, func, sizeof(o->pid_skip_func));
        o->pid_skip_why = why;
    }
}

/* pid_new: 1 when the program does not hold pid probe id at period yet; *room: how many more
 * the kernel's site table takes (DPROBE_PID_SITES_MAX, one site a pid probe) */
static int pid_new(const struct cg *g, uint32_t id, uint64_t period, unsigned *room)
{
    unsigned n = 0;
    int fresh = 1;
    for (unsigned k = 0; k < g->nprobes; k++) {
        if (!DPROBE_IS_PID(g->probes[k].dp_id))
            continue;
        if (g->probes[k].dp_id == id && g->probes[k].dp_period == period)
            fresh = 0;
        n++;
    }
    *room = n < DPROBE_PID_SITES_MAX ? DPROBE_PID_SITES_MAX - n : 0;
    return fresh;
}

/* pid_fits: the site table takes the probes a function's entry (ret 0) or its returns (ret 1)
 * add; else a glob counts the function among those left out and a single name is an error */
static int pid_fits(struct cg *g, const struct dprobe_pidfn *fn, uint32_t id, uint64_t pid,
                    int ret, int glob, const char *shown, int line)
{
    unsigned room = 0, need = 0, n = ret ? fn->nrets : 1u;
    for (unsigned j = 0; j < n; j++)
        need += (unsigned)pid_new(g, id, (ret ? fn->rets[j] : fn->addr) | pid << 32, &room);
    if (need <= room)
        return 1;
    if (!glob)
        dcc_error(g->cc, line, "D_DIF_SIZE", "%s:%s:%s:%s: %s", shown, fn->mod, fn->func,
                  ret ? "return" : "entry", pid_full);
    pid_skip(g, fn->func, pid_full);
    return 0;
}

static int pid_desc(struct cg *g, const char *const f[4], const char *desc, unsigned clause,
                    int line)
{
    const char *p = f[0];
    uint64_t pid = 0;
    if (strncmp(p, "pid", 3))
        return 0;
    if (!strcmp(p + 3, "__dtrace_target")) {
        pid = DPROBE_PID_TARGET;
    } else {
        if (!p[3])
            return 0;
        for (const char *q = p + 3; *q; q++) {
            if (*q < '0' || *q > '9')
                return 0;
            pid = pid * 10u + (uint64_t)(*q - '0');
            if (pid >= DPROBE_PID_TARGET)
                dcc_error(g->cc, line, "D_PDESC_INVAL", "invalid probe description \"%s\": "
                          "no such process id", desc);
        }
    }
    const char *shown = pid == DPROBE_PID_TARGET ? "pid$target" : p;   /* in messages */
    /* a description of many functions (an empty function field, or a glob) places every one
     * it can and counts the rest (dcc_out.pid_skipped, which the front ends report); one
     * naming a single function that cannot be placed is an error */
    int glob = !f[2][0];
    for (const char *q = desc; *q; q++)
        if (*q == '*' || *q == '?' || *q == '[')
            glob = 1;
    /* a.out is DTrace's name for the target's main program: the first program the front end
     * loaded (make dtrace loads the first of APPS, the target, first) */
    const char *mod = f[1];
    if (!strcmp(mod, "a.out") && dprobe_pid_count())
        mod = dprobe_pid_fn(0)->mod;
    unsigned hits = 0;
    for (unsigned k = 0; k < dprobe_pid_count(); k++) {
        const struct dprobe_pidfn *fn = dprobe_pid_fn(k);
        if (!dprobe_glob(mod, fn->mod) || !dprobe_glob(f[2], fn->func))
            continue;
        const char *prov = pid == DPROBE_PID_TARGET ? "pid" : p;
        if (dprobe_glob(f[3], "entry") && fn->entry_why && !glob)
            dcc_error(g->cc, line, "D_PDESC_ZERO", "%s:%s:%s:entry: %s cannot be probed: %s",
                      shown, fn->mod, fn->func, fn->func, fn->entry_why);
        if (dprobe_glob(f[3], "entry") && fn->entry_why)
            pid_skip(g, fn->func, fn->entry_why);
        if (dprobe_glob(f[3], "entry") && !fn->entry_why &&
            pid_fits(g, fn, DPROBE_PID_BASE + 2u * k, pid, 0, glob, shown, line)) {
            struct dprobe_desc d = { prov, fn->mod, fn->func, "entry" };
            ecb_add(g, probe_add(g, DPROBE_PID_BASE + 2u * k, &d, fn->addr | pid << 32, 0, line),
                    clause, line);
            hits++;
        }
        if (!dprobe_glob(f[3], "return"))
            continue;
        if (fn->ret_why && !glob)
            dcc_error(g->cc, line, "D_PDESC_ZERO", "%s:%s:%s:return: %s cannot be probed: %s",
                      shown, fn->mod, fn->func, fn->func, fn->ret_why);
        if (fn->ret_why)
            pid_skip(g, fn->func, fn->ret_why);
        struct dprobe_desc d = { prov, fn->mod, fn->func, "return" };
        if (!pid_fits(g, fn, DPROBE_PID_BASE + 2u * k + 1u, pid, 1, glob, shown, line))
            continue;       /* (a function's returns: all of them or none) */
        for (unsigned j = 0; j < fn->nrets; j++) {  /* one probe entry per return */
            unsigned at = probe_add(g, DPROBE_PID_BASE + 2u * k + 1u, &d,
                                    fn->rets[j] | pid << 32, 0, line);
            g->probes[at].dp_pad = fn->addr;
            ecb_add(g, at, clause, line);
            hits++;
        }
    }
    if (!hits && !g->cc->zdefs)
        dcc_error(g->cc, line, "D_PDESC_ZERO", "probe description %s:%s:%s:%s does not match "
                  "any probes", shown, f[1], f[2], f[3]);
    return 1;
}

static int fields_match(const char *const f[4], const struct dprobe_desc *d)
{
    return dprobe_glob(f[0], d->prov) && dprobe_glob(f[1], d->mod) &&
           dprobe_glob(f[2], d->func) && dprobe_glob(f[3], d->name);
}

/* table_match: the name a table probe *d takes in the program when description f matches it
 * (NULL: no match), by its own name or by a Solaris one (*a holds that). By its sdt name it
 * keeps its own, which says more (the interrupt's line); by its syscall name it takes that
 * one, which differs in the provider alone (dtrace -l -P syscall, -F's => arrows). A probe is
 * named once in a program: by the first description that enabled it. */
static const struct dprobe_desc *table_match(const char *const f[4], const struct dprobe_desc *d,
                                             struct dprobe_desc *a)
{
    if (fields_match(f, d))
        return d;
    if (dprobe_sdt_alias(d, a) && fields_match(f, a))
        return d;
    if (dprobe_syscall_alias(d, a) && fields_match(f, a))
        return a;
    return NULL;
}

void cg_match_desc(struct cg *g, const char *desc, unsigned clause, int line)
{
    const char *f[4] = { "", "", "", "" };
    char buf[256];
    unsigned nf = 1;
    if (strlen(desc) >= sizeof(buf))
        dcc_error(g->cc, line, "D_PDESC_INVAL", "probe description is too long");
    d_strlcpy(buf, desc, sizeof(buf));
    for (char *p = buf; *p; p++)
        if (*p == ':')
            nf++;
    if (nf > 4)
        dcc_error(g->cc, line, "D_PDESC_INVAL", "invalid probe description \"%s\": too many "
                  "fields", desc);
    /* fields fill from the right: "a:b" is function a, name b */
    unsigned k = 4 - nf;
    f[k] = buf;
    for (char *p = buf; *p; p++)
        if (*p == ':') {
            *p = 0;
            f[++k] = p + 1;
        }
    int glob = 0;
    for (const char *p = desc; *p; p++)
        if (*p == '*' || *p == '?' || *p == '[')
            glob = 1;
    int tick = !strncmp(f[3], "tick-", 5), prof = !strncmp(f[3], "profile-", 8);
    if ((tick || prof) && !glob && (!f[0][0] || !strcmp(f[0], "profile")) && !f[1][0] &&
        !f[2][0]) {
        uint64_t period = timer_period(f[3] + (tick ? 5 : 8));
        /* the profile provider makes no probe for a name it cannot read or for an interval
         * under its minimum of 200us, so such a description matches nothing */
        if (period < 200000)
            dcc_error(g->cc, line, "D_PDESC_ZERO", "probe description %s does not match any "
                      "probes", desc);
        struct dprobe_desc d = { "profile", "", "", f[3] };
        /* one probe per name, as the profile provider's: a second tick-1s is the same probe */
        uint32_t id = DPROBE_TIMER_BASE;
        int found = 0;
        for (unsigned j = 0; j < g->nprobes; j++)
            if (g->probes[j].dp_flags && !strcmp(g->strs + g->probes[j].dp_name, f[3]))
                id = g->probes[j].dp_id, found = 1;
        /* a new one: past the timer ids in use, counted in the timer range alone (an fbt or
         * USDT id above it is no timer's) */
        if (!found)
            for (unsigned j = 0; j < g->nprobes; j++)
                if (g->probes[j].dp_id >= id && g->probes[j].dp_id < DPROBE_FBT_BASE)
                    id = g->probes[j].dp_id + 1;
        ecb_add(g, probe_add(g, id, &d, period, tick ? DIF_PRF_TICK : DIF_PRF_PROFILE, line),
                clause, line);
        return;
    }
    if (pid_desc(g, f, desc, clause, line))
        return;
    unsigned hits = 0;
    for (uint32_t id = dprobe_next(0); id; id = dprobe_next(id)) {
        struct dprobe_desc d, a;
        if (dprobe_get(id, &d) != 0)
            continue;
        const struct dprobe_desc *named = table_match(f, &d, &a);
        if (named) {
            ecb_add(g, probe_add(g, id, named, 0, 0, line), clause, line);
            hits++;
        }
    }
    if (!hits && !glob)
        fbt_unprobeable(g, f, line);
    if (!hits && !g->cc->zdefs && !strcmp(f[0], "syscall"))
        dcc_error(g->cc, line, "D_PDESC_ZERO", "probe description %s does not match any probes: "
                  "the syscall provider's functions are this kernel's calls, named as QNX "
                  "names them (dtrace -l -P syscall lists them)", desc);
    if (!hits && !g->cc->zdefs) /* -Z: such a description enables nothing */
        dcc_error(g->cc, line, "D_PDESC_ZERO", "probe description %s does not match any probes",
                  desc);
}
