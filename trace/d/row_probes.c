// SPDX-License-Identifier: MIT
// The rows' own D probes (d/dprobes.h DPROBE_ROW_BASE), numbered and given their arguments
// here alone, so that the host's dtrace (which lists them and compiles clauses on them) and the
// kernel (which fires them at a row's emit site) cannot disagree: a row's D column probe
// "provider:::name" whose provider and name no fixed id has gets the next id of the range, in
// the rows' order (kev_event_row: the table's, then the added ones), a name two rows share one
// id. A probe with a field filled in per event ("interrupt::irq<irq>:entry"), a list or a
// pattern, or a derived one is not one: those are the kernel's families and the replay's state.
// Freestanding (the kernel links it), no state: every answer is walked from the rows again.
#include <d/dprobes.h>
#include <trace/kev_decode.h>
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

// earlier: a probe of the rows before row i, or of row i before dp, named as r (it has, or
// has not, an id of its own already: either way r gets none).
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
            if (n < DPROBE_ROW_MAX && fn && fn(user, DPROBE_ROW_BASE + n, r.prov, r.name))
                return n + 1u;
            n++;
        }
    }
    return n;
}

struct find {
    struct rname r;
    uint32_t id;
};

static int found(void *user, uint32_t id, const char *prov, const char *name)
{
    struct find *f = user;
    if (d_strcmp(prov, f->r.prov) || d_strcmp(name, f->r.name))
        return 0;
    f->id = id;
    return 1;
}

uint32_t dprobe_row_id(const char *probe)
{
    struct find f = { .id = DPROBE_NONE };
    if (split(probe, &f.r) && !fixed(&f.r))
        dprobe_rows_walk(found, &f);
    return f.id;
}

// ---- a firing's arguments, from the row's D column ------------------------------------------

// token_is: the token [s, s + n) is the word w.
static int token_is(const char *s, unsigned n, const char *w)
{
    return d_strlen(w) == n && !memcmp(s, w, n);
}

// number: the token as a decimal or 0x number; 0 when it is not one.
static int number(const char *s, unsigned n, uint64_t *v)
{
    unsigned base = n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16u : 10u, k = 0;
    if (base == 16u)
        k = 2;
    if (k == n || s[0] < '0' || s[0] > '9')
        return 0;
    for (*v = 0; k < n; k++) {
        char c = s[k];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : base == 16u && c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : base == 16u && c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 99u;
        if (d >= base)
            return 0;
        *v = *v * base + d;
    }
    return 1;
}

// field: the token as FIELD or FIELD.pid of the event's row; 0 when it names none the event
// carries (a payload too short for it, a field of no fixed word).
static int field(const struct kev_event_desc *row, const struct kev_event *e, const char *s,
                 unsigned n, uint64_t *v)
{
    unsigned len = 0;
    while (len < n && s[len] != '.')
        len++;
    if (len < n && !token_is(s + len, n - len, ".pid"))
        return 0;
    for (unsigned i = 0; i < row->nfields; i++) {
        const struct kev_field_desc *fd = &row->fields[i];
        if (!token_is(s, len, fd->name))
            continue;
        if (!kev_field_read(e, fd, v))
            return 0;
        if (len < n)
            *v = kev_who_pid(*v);
        return 1;
    }
    return 0;
}

// token: one argument or condition's value; 0 when the kernel's site cannot give it.
static int token(const struct kev_event_desc *row, const struct kev_event *e, const char *s,
                 unsigned n, uint64_t *v)
{
    if (token_is(s, n, "$ev")) {
        *v = e->ev;
        return 1;
    }
    return number(s, n, v) || field(row, e, s, n, v);
}

// unless: one of the row's conditions ("FIELD=N") holds for e: the site does not fire.
static int unless(const struct kev_event_desc *row, const struct kev_event *e, const char *u)
{
    for (const char *s = u; s && *s;) {
        unsigned n = 0, eq = 0;
        while (s[n] && s[n] != ' ')
            n++;
        while (eq < n && s[eq] != '=')
            eq++;
        uint64_t a, b;
        if (eq < n && token(row, e, s, eq, &a) && number(s + eq + 1, n - eq - 1u, &b) && a == b)
            return 1;
        s += n;
        while (*s == ' ')
            s++;
    }
    return 0;
}

int dprobe_row_args(const struct kev_event_desc *row, const struct kev_dprobe *dp,
                    const struct kev_event *e, uint64_t *args, unsigned max)
{
    if (unless(row, e, dp->unless))
        return -1;
    unsigned k = 0;
    for (const char *s = dp->args; s && *s;) {
        unsigned n = 0;
        while (s[n] && s[n] != ' ')
            n++;
        if (k == max || !token(row, e, s, n, &args[k]))
            return -1;
        k++;
        s += n;
        while (*s == ' ')
            s++;
    }
    return (int)k;
}
