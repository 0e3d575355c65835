// SPDX-License-Identifier: MIT
// The rows' own D probes (d/dprobes.h DPROBE_ROW_BASE): a row's D column probe
// "provider:::name" whose provider and name no fixed id has, its id the hash of its name
// (dprobe_row_hash), so that the host's dtrace and dcompile (which list them and compile
// clauses on them) and the kernel (whose generated emit helper fires them, tools/emitgen) give
// it one id whatever rows come before it; a name two rows share is one probe. A probe with a
// field filled in per event ("interrupt::irq<irq>:entry"), a list or a pattern, or a derived
// one is not one: those are the kernel's families and the replay's state.
// Freestanding, no state: every answer is walked from the rows again.
#include <d/dprobes.h>
#include <trace/kev_events.h>
#include "dutil.h"

struct rname {
    char prov[DPROBE_ROW_PART], name[DPROBE_ROW_PART];
};

// bad: a character no plain probe name has (a pattern, a list, a field filled in).
static int bad(char c)
{
    return c == '<' || c == '>' || c == ',' || c == ' ' || c == '*' || c == '?' || c == '[';
}

// split: "prov:::name" into its two parts; 0 when s is not of that form.
static int split(const char *s, struct rname *r)
{
    unsigned np = 0, nn = 0;
    while (s[np] && s[np] != ':' && !bad(s[np]))
        np++;
    if (!np || np >= DPROBE_ROW_PART || s[np] != ':' || s[np + 1] != ':' || s[np + 2] != ':')
        return 0;
    const char *n = s + np + 3;
    while (n[nn] && n[nn] != ':' && !bad(n[nn]))
        nn++;
    if (!nn || nn >= DPROBE_ROW_PART || n[nn])
        return 0;
    memcpy(r->prov, s, np);
    r->prov[np] = 0;
    memcpy(r->name, n, nn + 1u);
    return 1;
}

// fixed: a table id (not a row's) is provider:::name.
static int fixed(const struct rname *r)
{
    struct dprobe_desc d;
    for (uint32_t id = DPROBE_NONE + 1u; id < DPROBE_COUNT; id++)
        if (dprobe_get(id, &d) == 0 && !d.mod[0] && !d.func[0] && !d_strcmp(d.prov, r->prov) &&
            !d_strcmp(d.name, r->name))
            return 1;
    return 0;
}

static int same(const struct rname *a, const struct rname *b)
{
    return !d_strcmp(a->prov, b->prov) && !d_strcmp(a->name, b->name);
}

// earlier: a probe of the rows before row i, or of row i before dp, named as r (it has its id
// already).
static int earlier(unsigned i, const struct kev_dprobe *dp, const struct rname *r)
{
    for (unsigned k = 0; k <= i; k++) {
        const struct kev_event_desc *row = kev_event_row(k);
        for (const struct kev_dprobe *p = row->dprobes; p && p->probe && p != dp; p++) {
            struct rname o;
            if (!p->derived && split(p->probe, &o) && same(&o, r))
                return 1;
        }
    }
    return 0;
}

unsigned dprobe_rows_walk(dprobe_row_fn fn, void *user)
{
    unsigned n = 0;
    for (unsigned i = 0; i < kev_event_rows(); i++) {
        const struct kev_event_desc *row = kev_event_row(i);
        for (const struct kev_dprobe *dp = row->dprobes; dp && dp->probe; dp++) {
            struct rname r;
            if (dp->derived || !split(dp->probe, &r) || fixed(&r) || earlier(i, dp, &r))
                continue;
            n++;
            if (fn && fn(user, dprobe_row_hash(r.prov, r.name), r.prov, r.name))
                return n;
        }
    }
    return n;
}

uint32_t dprobe_row_id(const char *probe)
{
    struct rname r;
    return split(probe, &r) && !fixed(&r) ? dprobe_row_hash(r.prov, r.name) : DPROBE_NONE;
}
