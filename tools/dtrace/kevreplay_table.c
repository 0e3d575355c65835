// SPDX-License-Identifier: MIT
// dtrace -i's probes from the event table's D column (kevreplay_table.h): a row's probe names
// (their "<field>" and "<call>" filled in from the event) resolved to probe ids through a map
// of every table probe's name, built once; the arguments read token by token from the row's
// args (trace/kev_events.h struct kev_dprobe gives the tokens). State: that map only, built on
// first use and never changed after (the replay is single-threaded).
#include "kevreplay_table.h"
#include <d/dprobes.h>
#include <d/dutext.h>
#include <kevhost/kx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace/kev.h>

#define NAME_MAX_LEN 128u
#define MAP_SLOTS 2048u     /* a power of two, well above the probe table's ids */

static struct { char *name; uint32_t id; } probe_map[MAP_SLOTS];
static int map_built;

static unsigned name_hash(const char *s)
{
    unsigned h = 2166136261u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h & (MAP_SLOTS - 1u);
}

/* map_add: probe id by its full name, when it is one. */
static void map_add(uint32_t id)
{
    struct dprobe_desc d;
    char name[NAME_MAX_LEN];
    if (dprobe_get(id, &d) != 0)
        return;
    snprintf(name, sizeof(name), "%s:%s:%s:%s", d.prov, d.mod, d.func, d.name);
    unsigned h = name_hash(name);
    while (probe_map[h].name && strcmp(probe_map[h].name, name))
        h = (h + 1u) & (MAP_SLOTS - 1u);
    if (!probe_map[h].name && (probe_map[h].name = strdup(name)))
        probe_map[h].id = id;
}

/* map_build: every probe of the table (BEGIN to the last fixed one), then the rows' own
 * (d/dprobes.h DPROBE_ROW_BASE). */
static void map_build(void)
{
    map_built = 1;
    for (uint32_t id = DPROBE_NONE + 1u; id < DPROBE_COUNT; id++)
        map_add(id);
    for (uint32_t id = dprobe_next(DPROBE_ROW_BASE - 1u); DPROBE_IS_ROW(id); id = dprobe_next(id))
        map_add(id);
}

static uint32_t probe_id(const char *name)
{
    if (!map_built)
        map_build();
    for (unsigned h = name_hash(name); probe_map[h].name; h = (h + 1u) & (MAP_SLOTS - 1u))
        if (!strcmp(probe_map[h].name, name))
            return probe_map[h].id;
    return DPROBE_NONE;
}

/* field_value: token tok (len n) as a field, "FIELD" or "FIELD.pid"; 0 when e has no such
 * integer field (a payload too short for it). */
static int field_value(const struct kev_fields *fs, const char *tok, size_t n, uint64_t *v)
{
    char name[64];
    const char *dot = memchr(tok, '.', n);
    size_t len = dot ? (size_t)(dot - tok) : n;
    if (len >= sizeof(name))
        return 0;
    memcpy(name, tok, len);
    name[len] = '\0';
    if (!kev_field_value(fs, name, v))
        return 0;
    if (dot && n - len == 4 && !memcmp(dot, ".pid", 4))
        *v = kev_who_pid(*v);
    else if (dot)
        return 0;
    return 1;
}

/* probe_name: the row's probe with its "<call>" and "<FIELD>" filled in; 0 when one cannot
 * be (a call without a name, a field the event lacks). */
static int probe_name(const char *tmpl, const struct kev_event *e, const struct kev_fields *fs,
                      char *out, size_t n)
{
    size_t k = 0;
    for (const char *s = tmpl; *s; s++) {
        if (*s != '<') {
            if (k + 1 >= n)
                return 0;
            out[k++] = *s;
            continue;
        }
        const char *end = strchr(s, '>');
        if (!end)
            return 0;
        char val[48];
        uint64_t v;
        if (end - s - 1 == 4 && !memcmp(s + 1, "call", 4)) {
            const char *c = kev_kcall_name(kev_kcall_no(e));
            if (!c)
                return 0;
            snprintf(val, sizeof(val), "%s", c);
        } else if (field_value(fs, s + 1, (size_t)(end - s - 1), &v)) {
            snprintf(val, sizeof(val), "%llu", (unsigned long long)v);
        } else {
            return 0;
        }
        size_t vl = strlen(val);
        if (k + vl + 1 >= n)
            return 0;
        memcpy(out + k, val, vl);
        k += vl;
        s = end;
    }
    out[k] = '\0';
    return 1;
}

/* unless_holds: one of the row's conditions holds for e (the site does not fire). */
static int unless_holds(const char *unless, const struct kev_fields *fs, int in_snapshot)
{
    for (const char *s = unless; s && *s;) {
        size_t n = strcspn(s, " ");
        const char *eq = memchr(s, '=', n);
        uint64_t v;
        if (n == 9 && !memcmp(s, "$snapshot", 9) && in_snapshot)
            return 1;
        if (eq && field_value(fs, s, (size_t)(eq - s), &v) && v == strtoull(eq + 1, NULL, 0))
            return 1;
        s += n;
        s += strspn(s, " ");
    }
    return 0;
}

/* fill_args: the row's args for e into f; 0 when a field it names is not in e. */
static int fill_args(const char *args, const struct kev_event *e,
                     const struct kev_fields *fs, rtable_site_fn site, void *user,
                     struct rtable_fire *f)
{
    unsigned k = 0;
    for (const char *s = args; *s && k < DVM_NARGS;) {
        size_t n = strcspn(s, " ");
        char tok[64];
        if (n >= sizeof(tok))
            return 0;
        memcpy(tok, s, n);
        tok[n] = '\0';
        s += n;
        s += strspn(s, " ");
        if (!strcmp(tok, "$words")) {         /* a call's arguments: the words, up to six */
            for (unsigned i = 0; i < 6 && k < DVM_NARGS; i++, k++) {
                f->a[k] = i < e->nw ? e->w[i] : 0;
                if (i >= e->nw) {
                    f->unknown |= 1u << k;
                    snprintf(f->unknown_name[k], sizeof(f->unknown_name[k]), "$words");
                }
            }
            continue;
        }
        if (!strcmp(tok, "$result")) {        /* the result, or -errno on failure */
            int32_t ret;
            uint32_t err;
            if (kev_kcall_exit(e, &ret, &err))
                f->a[k] = err ? (uint64_t)-(int64_t)err : (uint64_t)(int64_t)ret;
        } else if (!strcmp(tok, "$call")) {
            f->a[k] = kev_kcall_no(e);
        } else if (!strcmp(tok, "$ev")) {
            f->a[k] = e->ev;
        } else if (!strcmp(tok, "$user")) {   /* two words, or the payload and its size */
            if (e->nslots > 1) {
                f->payload = 1;
                f->a[k++] = DUTEXT_ADDR;
                f->a[k] = 4u * e->nw;
            } else {
                f->a[k++] = kx_user_word(e, 0);
                f->a[k] = kx_user_word(e, 1);
            }
        } else if (tok[0] == '?') {
            if (!site || !site(user, tok + 1, fs, &f->a[k])) {
                f->a[k] = 0;
                f->unknown |= 1u << k;
                snprintf(f->unknown_name[k], sizeof(f->unknown_name[k]), "%.15s", tok + 1);
            }
        } else if (tok[0] >= '0' && tok[0] <= '9') {
            f->a[k] = strtoull(tok, NULL, 0);
        } else if (!field_value(fs, tok, n, &f->a[k])) {
            return 0;
        }
        k++;
    }
    return 1;
}

unsigned rtable_probes(const struct kev_reader *r, const struct kev_event *e, int in_snapshot,
                       rtable_site_fn site, void *user, struct kev_fields *fs,
                       struct rtable_fire *out, unsigned max)
{
    const struct kev_event_desc *d = kev_event_describe(e->cls, e->ev);
    unsigned n = 0;
    int decoded = 0;
    for (const struct kev_dprobe *dp = d ? d->dprobes : NULL; dp && dp->probe && n < max; dp++) {
        if (dp->derived)
            continue;
        if (!decoded) {
            kev_fields_decode(r, e, fs);
            decoded = 1;
        }
        char name[NAME_MAX_LEN];
        if (unless_holds(dp->unless, fs, in_snapshot) ||
            !probe_name(dp->probe, e, fs, name, sizeof(name)))
            continue;
        struct rtable_fire *f = &out[n];
        memset(f, 0, sizeof(*f));
        if (!(f->id = probe_id(name)) || !fill_args(dp->args, e, fs, site, user, f))
            continue;
        n++;
    }
    return n;
}
