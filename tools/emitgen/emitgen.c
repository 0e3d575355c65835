// SPDX-License-Identifier: MIT
// emitgen: writes the kernel's side of the event table (trace/kev_events.c) as C, so that an
// event is written once, in its row: for each row's D probe that is not derived, its firing
// from its values (kev_d_<row>_<probe>(values...) -> struct kev_dfire, trace/kev_derived.h:
// the probe's id and its arguments in the row's order, each value a parameter of the name the
// row gives it); for each row whose site needs nothing but its values (one event number,
// fields of fixed words, every probe named by the row and its arguments fields, FIELD.pid,
// ?NAME or numbers, or every probe derived by one rule of kev_derived.h's KEV_DERIVED_ROWS)
// its emit helper kev_emit_<row>(how, fields..., site values...), which packs the words from
// its parameters, writes the event and, with D, fires the row's probes at its stamp in that
// order, or the rule's (kernel/include/kernel/kev_emit.h's bracket); and for each other row of
// one number its packer kev_pack_<row>(w, fields...), the words at fixed places a hand-written
// site writes. A probe of the row's own (no list of d/dprobes.h names it) gets the id of its
// name's hash (dprobe_row_hash), the one the host's dtrace lists. The build runs it
// (tools/emitgen/module.mk) before any file that includes the output is compiled; nothing it
// writes is kept in git: `emitgen -l` lists each helper, packer and firing by name for
// docs/event-table.md, where `git grep` finds them.
// Bad input (a row the generator cannot express, two names of one hash) is an error naming
// the row: the build stops rather than compile a site that disagrees with its row.
#include <d/dprobes.h>
#include <trace/kev_events.h>
#include <trace/kev_derived.h>
#include <trace/kev_wire.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXARGS 8u
#define MAXTOK 64u

static const char *prog = "emitgen";
static int failed;

static void fail(const struct kev_event_desc *row, const char *what, const char *detail)
{
    fprintf(stderr, "%s: row %s: %s%s%s\n", prog, row ? row->name : "?", what,
            detail ? ": " : "", detail ? detail : "");
    failed = 1;
}

// ---- a probe's id ----------------------------------------------------------------------------

struct fixed {
    const char *sym, *prov, *name;
};
#define EMITGEN_FIXED(id, prov, name, hooks) { "DPROBE_" #id, prov, name },
static const struct fixed fixed_ids[] = { DPROBE_FIXED_LIST(EMITGEN_FIXED) };

// The computed families (d/dprobes.h): a provider whose function names the site's value
// ("kercall::<call>:entry", "interrupt::irq<irq>:exit") and the macro giving its id.
static const struct {
    const char *prov, *macro;
} families[] = { { "kercall", "DPROBE_KCALL_" }, { "interrupt", "DPROBE_IRQ_" } };

struct probe {
    char prov[MAXTOK], mod[MAXTOK], func[MAXTOK], name[MAXTOK];
    char id[3 * MAXTOK];    // the id as C
    char maker[3 * MAXTOK]; // kev_d_<row>_<probe>
    int own, family;        // the row's own probe; a family's (the id needs a site value)
    char args[MAXARGS][2 * MAXTOK];
    unsigned nargs;
    char params[MAXARGS][MAXTOK];   // the maker's parameters, in their first use's order
    unsigned nparams;
};

// name_add: name at the end of the list names (n of them, at most MAXARGS) unless it is there.
static void name_add(char names[][MAXTOK], unsigned *n, const char *name)
{
    for (unsigned i = 0; i < *n; i++)
        if (!strcmp(names[i], name))
            return;
    if (*n < MAXARGS)
        snprintf(names[(*n)++], MAXTOK, "%s", name);
}

// param_add: name as a parameter of p's maker (once).
static void param_add(struct probe *p, const char *name)
{
    name_add(p->params, &p->nparams, name);
}

// split: "prov:mod:func:name" into its parts; 0 for a list or a pattern (not one probe).
static int split(const char *s, struct probe *p)
{
    char *part[4] = { p->prov, p->mod, p->func, p->name };
    unsigned k = 0, n = 0;
    if (strpbrk(s, ",* ?["))
        return 0;
    for (; *s; s++) {
        if (*s == ':') {
            part[k][n] = 0;
            if (++k == 4)
                return 0;
            n = 0;
        } else if (n + 1u < MAXTOK) {
            part[k][n++] = *s;
        } else {
            return 0;
        }
    }
    part[k][n] = 0;
    return k == 3 && p->prov[0] && p->name[0];
}

// upper: s as a C macro's part (upper case, '-' and other marks '_', a <...> dropped).
static void upper(char *out, size_t n, const char *s)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++) {
        if (*s == '<') {
            while (*s && *s != '>')
                s++;
            if (!*s)
                break;
            continue;
        }
        out[k++] = isalnum((unsigned char)*s) ? (char)toupper((unsigned char)*s) : '_';
    }
    out[k] = 0;
}

// probe_id: p's id as C; 0 when the probe is none the generator can name.
static int probe_id(struct probe *p)
{
    for (size_t i = 0; i < sizeof(fixed_ids) / sizeof(fixed_ids[0]); i++)
        if (!p->mod[0] && !p->func[0] && !strcmp(fixed_ids[i].prov, p->prov) &&
            !strcmp(fixed_ids[i].name, p->name)) {
            snprintf(p->id, sizeof(p->id), "%s", fixed_ids[i].sym);
            return 1;
        }
    for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
        const char *lt = strchr(p->func, '<'), *gt = lt ? strchr(lt, '>') : NULL;
        if (strcmp(families[i].prov, p->prov) || !lt || !gt || gt[1])
            continue;
        char nm[MAXTOK];
        upper(nm, sizeof(nm), p->name);
        snprintf(p->id, sizeof(p->id), "%s%s(%.*s)", families[i].macro, nm, (int)(gt - lt - 1),
                 lt + 1);
        char param[MAXTOK];
        snprintf(param, sizeof(param), "%.*s", (int)(gt - lt - 1), lt + 1);
        param_add(p, param);
        p->family = 1;
        return 1;
    }
    if (p->mod[0] || p->func[0] || strpbrk(p->name, "<>") || strlen(p->prov) >= DPROBE_ROW_PART ||
        strlen(p->name) >= DPROBE_ROW_PART)
        return 0;
    char id[sizeof(p->id)];
    snprintf(id, sizeof(id), "0x%xu /* %s:::%s */", dprobe_row_hash(p->prov, p->name), p->prov,
             p->name);
    memcpy(p->id, id, sizeof(id));
    p->own = 1;
    return 1;
}

// ---- a probe's arguments -----------------------------------------------------------------------

static const struct kev_field_desc *field_of(const struct kev_event_desc *row, const char *name)
{
    for (unsigned i = 0; i < row->nfields; i++)
        if (!strcmp(row->fields[i].name, name))
            return &row->fields[i];
    return NULL;
}

static int is_number(const char *t)
{
    char *end;
    if (!isdigit((unsigned char)t[0]))
        return 0;
    (void)strtoull(t, &end, 0);
    return !*end;
}

// The site values a row's probes name (?NAME), in order of their first use: the helper's
// parameters after the fields.
struct site {
    char names[MAXARGS][MAXTOK];
    unsigned n;
};

static void site_add(struct site *sv, const char *name)
{
    name_add(sv->names, &sv->n, name);
}

// arg: one token of a D column as C, and the maker's parameter it names; 0 for a token that
// names nothing (not a field of the row), -1 for one no site value gives. *plain is cleared by
// the tokens a hand helper gives (the $ values, a family's id): $words is the call's words
// (`words`, a pointer), $user a USER event's two words (`user0`, `user1`; its payload's window
// is the hand helper's).
static int arg(const struct kev_event_desc *row, struct probe *p, const char *t, struct site *sv,
               int *plain)
{
    char (*out)[2 * MAXTOK] = &p->args[p->nargs];
    if (!strcmp(t, "$words") || !strcmp(t, "$user")) {
        unsigned n = t[1] == 'w' ? 6u : 2u;
        if (p->nargs + n > MAXARGS)
            return 0;
        for (unsigned k = 0; k < n; k++)
            snprintf(p->args[p->nargs++], sizeof(p->args[0]), n == 6 ? "words[%u]" : "user%u", k);
        if (n == 6)
            param_add(p, "words");
        for (unsigned k = 0; n == 2 && k < n; k++)
            param_add(p, k ? "user1" : "user0");
        *plain = 0;
        return 1;
    }
    if (p->nargs == MAXARGS)
        return 0;
    if (t[0] == '$' && strcmp(t, "$result") && strcmp(t, "$call") && strcmp(t, "$ev"))
        return -1;
    if (!strcmp(t, "$result") || !strcmp(t, "$call") || !strcmp(t, "$ev")) {
        snprintf(*out, sizeof(*out), "%s", t + 1);
        param_add(p, t + 1);
        *plain = 0;
    } else if (t[0] == '?' && t[1]) {
        snprintf(*out, sizeof(*out), "%s", t + 1);
        param_add(p, t + 1);
        site_add(sv, t + 1);
    } else if (is_number(t)) {
        snprintf(*out, sizeof(*out), "%s", t);
    } else {
        char name[MAXTOK];
        const char *dot = strchr(t, '.');
        size_t len = dot ? (size_t)(dot - t) : strlen(t);
        if (len >= sizeof(name) || (dot && strcmp(dot, ".pid")))
            return 0;
        memcpy(name, t, len);
        name[len] = 0;
        const struct kev_field_desc *fd = field_of(row, name);
        if (!fd || fd->kind == KEV_K_STRING || KEV_K_IS_ARRAY(fd->kind))
            return 0;
        snprintf(*out, sizeof(*out), dot ? "kev_who_pid(%s)" : "%s", name);
        param_add(p, name);
    }
    p->nargs++;
    return 1;
}

// probe_read: dp as C (its id, its arguments); 0 when it has none (a pattern, a list, an
// argument that names nothing), -1 when a hand helper fires it (arg's -1).
static int probe_read(const struct kev_event_desc *row, const struct kev_dprobe *dp,
                      struct probe *p, struct site *sv, int *plain)
{
    memset(p, 0, sizeof(*p));
    if (!split(dp->probe, p) || !probe_id(p))
        return 0;
    char r[MAXTOK], n[MAXTOK];
    upper(r, sizeof(r), row->name);
    upper(n, sizeof(n), p->name);
    snprintf(p->maker, sizeof(p->maker), "kev_d_%s_%s", r, n);
    for (char *c = p->maker; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    const char *s = dp->args ? dp->args : "";
    while (*s) {
        char t[MAXTOK];
        size_t k = strcspn(s, " ");
        if (k >= sizeof(t))
            return 0;
        memcpy(t, s, k);
        t[k] = 0;
        int r = arg(row, p, t, sv, plain);
        if (r <= 0)
            return r;
        s += k;
        s += strspn(s, " ");
    }
    if (p->family)
        *plain = 0;
    return 1;
}

// print_params: p's parameters as C (the words a pointer, each other value 64 bits).
static void print_params(FILE *f, const struct probe *p)
{
    for (unsigned k = 0; k < p->nparams; k++)
        fprintf(f, "%s%s%s", k ? ", " : "", strcmp(p->params[k], "words") ? "uint64_t "
                                                                            : "const uint32_t *",
                p->params[k]);
    if (!p->nparams)
        fprintf(f, "void");
}

// print_maker: the probe's firing (trace/kev_derived.h struct kev_dfire) from its values,
// each a parameter of its name, in the row's order: what a site fires (kev_emit_fire).
static void print_maker(FILE *f, const struct kev_event_desc *row, const struct probe *p)
{
    fprintf(f, "\n// %s's %s:%s:%s:%s.\nstatic inline struct kev_dfire %s(", row->name, p->prov,
            p->mod, p->func, p->name, p->maker);
    print_params(f, p);
    fprintf(f, ")\n{\n    const struct kev_dfire f = { .id = %s, .n = %u, .as = KEV_DAS_SITE, .a = {",
            p->id, p->nargs);
    for (unsigned k = 0; k < p->nargs; k++)
        fprintf(f, "%s %s", k ? "," : "", p->args[k]);
    fprintf(f, "%s } };\n    return f;\n}\n", p->nargs ? "" : " 0");
}

// print_fire: a helper's firing of p, its arguments the helper's parameters as p's maker
// takes them (the same order, written out: the helper's code is the firing's alone).
static void print_fire(FILE *f, const struct probe *p)
{
    fprintf(f, "kdt_fire_n_in(NULL, %s, (const uint64_t[]){", p->id);
    for (unsigned k = 0; k < p->nargs; k++)
        fprintf(f, "%s %s", k ? "," : "", p->args[k]);
    fprintf(f, "%s }, %u, 0);\n", p->nargs ? "" : " 0", p->nargs);
}

// ---- a row's helper ------------------------------------------------------------------------

// word_expr: payload word n of row from its parameters, each field masked to its bits and
// shifted to its place (trace/kev_rows.h kev_pack_bits), as the readers read it.
static void word_expr(FILE *f, const struct kev_event_desc *row, unsigned n)
{
    unsigned terms = 0;
    for (unsigned i = 0; i < row->nfields; i++) {
        const struct kev_field_desc *fd = &row->fields[i];
        const char *sep = terms ? " | " : "";
        if (fd->layout == KEV_L_WORD && fd->word == n) {
            if (fd->bits && fd->bits < 32)
                fprintf(f, "%skev_pack_bits(%s, %u, %u)", sep, fd->name, fd->shift, fd->bits);
            else if (fd->shift)
                fprintf(f, "%s(uint32_t)%s << %u", sep, fd->name, fd->shift);
            else
                fprintf(f, "%s%s", sep, fd->name);
        } else if ((fd->layout == KEV_L_HI_LO && fd->word == n) ||
                   (fd->layout == KEV_L_LO_HI && fd->word + 1u == n)) {
            fprintf(f, "%s(uint32_t)(%s >> 32)", sep, fd->name);
        } else if ((fd->layout == KEV_L_HI_LO && fd->word + 1u == n) ||
                   (fd->layout == KEV_L_LO_HI && fd->word == n)) {
            fprintf(f, "%s(uint32_t)%s", sep, fd->name);
        } else {
            continue;
        }
        terms++;
    }
    if (!terms)
        fprintf(f, "0u");
}

// helper_words: the words before the row's string (its payload without it); 0 when the row's
// fields are not fixed words (an array, a wide-only field, a string not last): no helper.
static unsigned helper_words(const struct kev_event_desc *row, const struct kev_field_desc **str)
{
    unsigned nw = 0;
    *str = NULL;
    for (unsigned i = 0; i < row->nfields; i++) {
        const struct kev_field_desc *fd = &row->fields[i];
        if (*str || fd->wide)
            return 0;
        if (fd->layout == KEV_L_STRING) {
            *str = fd;
            continue;
        }
        if (fd->layout != KEV_L_WORD && fd->layout != KEV_L_HI_LO && fd->layout != KEV_L_LO_HI)
            return 0;
        unsigned end = fd->word + (fd->layout == KEV_L_WORD ? 1u : 2u);
        nw = end > nw ? end : nw;
    }
    if (*str && (*str)->word != KEV_W_NEXT && (*str)->word != nw)
        return 0;
    if (!*str && (row->fast_words != nw || row->wide_words != nw))
        return 0;
    return nw;
}

static void lower(char *out, size_t n, const char *s)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++)
        out[k++] = (char)tolower((unsigned char)*s);
    out[k] = 0;
}

// print_unless: the row's conditions on its fields ("FIELD=N"), under which it does not fire,
// as C ($snapshot is the replay's: the kernel's snapshot calls no emit helper with D).
static void print_unless(FILE *f, const struct kev_event_desc *row, const char *u)
{
    const char *sep = "";
    fprintf(f, "    if (");
    for (const char *s = u; s && *s;) {
        size_t k = strcspn(s, " ");
        const char *eq = memchr(s, '=', k);
        char name[MAXTOK];
        if (eq && (size_t)(eq - s) < sizeof(name)) {
            memcpy(name, s, (size_t)(eq - s));
            name[eq - s] = 0;
            if (field_of(row, name)) {
                fprintf(f, "%s%s != %.*s", sep, name, (int)(k - (size_t)(eq - s) - 1u), eq + 1);
                sep = " && ";
            }
        }
        s += k;
        s += strspn(s, " ");
    }
    fprintf(f, "%s)\n        ", *sep ? "" : "1");
}

// ---- a row's plan: what the generator writes for it ---------------------------------------------

// A rule of trace/kev_derived.h whose firings a row's site fires from its values alone.
struct rule {
    const char *row, *fn, *params;
};
#define EMITGEN_RULE(row, fn, params) { #row, #fn, params },
static const struct rule rules[] = { KEV_DERIVED_ROWS(EMITGEN_RULE) };

struct plan {
    struct probe ps[8];         // the row's probes with an order of their own (not derived)
    const struct kev_dprobe *dps[8]; // ... their D column entries
    unsigned np;
    struct site sv;             // the helper's site values, after the fields
    unsigned nw;                // its fixed words (helper_words)
    const struct kev_field_desc *str; // its string, or NULL
    int helper;                 // a helper is written: from its probes' orders, or
    const struct rule *rule;    // ... this rule's firings
    unsigned npack;             // its packer's words (0: none)
};

// rule_of: the rule a row whose every probe is derived fires, and its site values into sv.
static const struct rule *rule_of(const struct kev_event_desc *row, struct site *sv)
{
    for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
        if (strcmp(rules[i].row, row->name))
            continue;
        for (const char *s = rules[i].params; *s;) {
            char name[MAXTOK];
            size_t k = strcspn(s, " ");
            snprintf(name, sizeof(name), "%.*s", (int)k, s);
            if (!field_of(row, name))
                site_add(sv, name);
            s += k;
            s += strspn(s, " ");
        }
        return &rules[i];
    }
    return NULL;
}

// pack_words: the words a packer of row writes, its fields at fixed words; 0: none, or a
// layout other rows share (the thread states, INT_ENTR and INT_EXIT), which no one row names.
static unsigned pack_words(const struct kev_event_desc *row)
{
    unsigned nw = 0;
    for (unsigned i = 0; i < kev_event_rows(); i++)
        if (kev_event_row(i) != row && kev_event_row(i)->fields == row->fields)
            return 0;
    for (unsigned i = 0; i < row->nfields; i++) {
        const struct kev_field_desc *fd = &row->fields[i];
        if ((fd->layout != KEV_L_WORD && fd->layout != KEV_L_HI_LO && fd->layout != KEV_L_LO_HI) ||
            fd->word == KEV_W_NEXT)
            continue;
        unsigned end = fd->word + (fd->layout == KEV_L_WORD ? 1u : 2u);
        nw = end > nw ? end : nw;
    }
    return nw;
}

// plan_row: what the generator writes for row; its errors (a row it cannot express) said.
static void plan_row(const struct kev_event_desc *row, struct plan *pl)
{
    memset(pl, 0, sizeof(*pl));
    unsigned nplain = 0, nall = 0, nown = 0, nderived = 0;
    for (const struct kev_dprobe *dp = row->dprobes; dp && dp->probe; dp++, nall++) {
        struct probe *p = &pl->ps[pl->np];
        int plain = 1, r = dp->derived || pl->np == 8 ? -1 : probe_read(row, dp, p, &pl->sv, &plain);
        nderived += dp->derived;
        if (r == 0 && split(dp->probe, p))
            fail(row, "a probe whose arguments name nothing the row has", dp->probe);
        if (r > 0 && p->nargs > KEV_DFIRE_ARGS)
            fail(row, "a probe of more arguments than a firing holds (KEV_DFIRE_ARGS)", dp->probe);
        if (r <= 0)
            continue;
        nown += (unsigned)p->own;
        nplain += (unsigned)plain;
        pl->dps[pl->np++] = dp;
    }
    // A helper: for a row whose site fires its probes with nothing but its values, or fires
    // none (the ring's write alone; not the ring's own CONTROL events), or fires one rule's.
    pl->nw = helper_words(row, &pl->str);
    const int shaped = row->lo == row->hi && !row->kcall && (pl->nw || pl->str);
    int fires = row->dsite == KEV_D_EMIT || nown, quiet = row->dsite == KEV_D_NONE && !nall;
    pl->helper = ((fires && nplain == nall && nplain == pl->np) ||
                  (quiet && row->cls != KEV_C_CONTROL)) && shaped;
    if (!pl->helper && shaped && nall && nderived == nall)
        pl->helper = (pl->rule = rule_of(row, &pl->sv)) != NULL;
    if (nown && !pl->helper)
        fail(row, "a probe of its own on a row with no generated helper (fixed words, one number)",
             NULL);
    if (!pl->helper && row->lo == row->hi && !row->kcall && row->cls != KEV_C_CONTROL)
        pl->npack = pack_words(row);
}

// ---- a row's helper and packer ---------------------------------------------------------------

// print_signature: kev_emit_<row>(how, fields..., site values...), typed as C or not (the
// listing's).
static void print_signature(FILE *f, const struct kev_event_desc *row, const struct plan *pl,
                            int typed)
{
    char lname[MAXTOK];
    lower(lname, sizeof(lname), row->name);
    fprintf(f, "kev_emit_%s(%show", lname, typed ? "unsigned " : "");
    for (unsigned i = 0; i < row->nfields; i++) {
        const struct kev_field_desc *fd = &row->fields[i];
        fprintf(f, ", %s%s", !typed ? "" : fd->layout == KEV_L_STRING ? "const char *"
                             : fd->layout == KEV_L_WORD ? "uint32_t " : "uint64_t ", fd->name);
    }
    for (unsigned i = 0; i < pl->sv.n; i++)
        fprintf(f, ", %s%s", typed ? "uint64_t " : "", pl->sv.names[i]);
    fprintf(f, ")");
}

// print_fires: the helper's firings with D, at the event's stamp: each probe's in the row's
// order (not under its `unless`), or the rule's.
static void print_fires(FILE *f, const struct kev_event_desc *row, const struct plan *pl)
{
    if (pl->rule) {
        fprintf(f, "    struct kev_dfire f[KEV_DFIRE_MAX];\n    kev_emit_fire_all(NULL, f, %s(f",
                pl->rule->fn);
        for (const char *s = pl->rule->params; *s;) {
            size_t k = strcspn(s, " ");
            fprintf(f, ", %.*s", (int)k, s);
            s += k;
            s += strspn(s, " ");
        }
        fprintf(f, "));\n");
        return;
    }
    for (unsigned k = 0; k < pl->np; k++) {
        if (pl->dps[k]->unless && strchr(pl->dps[k]->unless, '='))
            print_unless(f, row, pl->dps[k]->unless);
        else
            fprintf(f, "    ");
        print_fire(f, &pl->ps[k]);
    }
}

static void print_helper(FILE *f, const struct kev_event_desc *row, const struct plan *pl)
{
    const unsigned nw = pl->nw;
    const int fires = pl->np || pl->rule;
    fprintf(f, "\n// %s: %s.\nstatic inline void ", row->name, row->when);
    print_signature(f, row, pl, 1);
    fprintf(f, "\n{\n");
    char cls[MAXTOK];
    snprintf(cls, sizeof(cls), "KEV_C_%s", kev_class_name(row->cls));
    const int simple = nw == 2 && !pl->str;
    if (!simple) {              // (the words first, then the site's bracket: as written by hand)
        fprintf(f, "    const uint32_t w[%u] = {\n", nw ? nw : 1u);
        for (unsigned n = 0; n < nw; n++) {
            fprintf(f, "        ");
            word_expr(f, row, n);
            fprintf(f, ",\n");
        }
        fprintf(f, "    };\n");
    }
    if (fires)
        fprintf(f, "    uint32_t before = kev_site_open(how == KEV_D);\n");
    else if (!simple)
        fprintf(f, "    (void)how;   // the ring's write\n");
    if (simple) {
        fprintf(f, "    kev_write_simple(how, %s, 0x%xu, ", cls, row->lo);
        word_expr(f, row, 0);
        fprintf(f, ",\n                     ");
        word_expr(f, row, 1);
        fprintf(f, ");\n");
    } else if (pl->str) {
        fprintf(f, "    trace_emit_string(&ktrace, %s, 0x%xu, w, %u, %s);\n", cls, row->lo, nw,
                pl->str->name);
    } else {
        fprintf(f, "    trace_emit_words(&ktrace, %s, 0x%xu, w, %u);\n", cls, row->lo, nw);
    }
    if (!fires) {               // (how: KEV_RING, or KEV_INLINE for a two-word event)
        fprintf(f, "}\n");
        return;
    }
    fprintf(f, "    if (how != KEV_D)\n        return;\n    kev_site_stamp(true, before);\n");
    print_fires(f, row, pl);
    fprintf(f, "    kev_site_close(true);\n}\n");
}

// print_packer_signature: kev_pack_<row>(w, its fixed fields...), each a parameter of its name.
static void print_packer_signature(FILE *f, const struct kev_event_desc *row, int typed)
{
    char lname[MAXTOK];
    lower(lname, sizeof(lname), row->name);
    fprintf(f, "kev_pack_%s(%sw", lname, typed ? "uint32_t *" : "");
    for (unsigned i = 0; i < row->nfields; i++) {
        const struct kev_field_desc *fd = &row->fields[i];
        if ((fd->layout == KEV_L_WORD || fd->layout == KEV_L_HI_LO || fd->layout == KEV_L_LO_HI) &&
            fd->word != KEV_W_NEXT)
            fprintf(f, ", %s%s", !typed ? "" : fd->layout == KEV_L_WORD ? "uint32_t " : "uint64_t ",
                    fd->name);
    }
    fprintf(f, ")");
}

// print_packer: for a row a hand-written site writes, its words at fixed places from its
// fields, each masked to its bits and shifted to its place, as the readers read them; the
// words after (a string, an array) are the site's.
static void print_packer(FILE *f, const struct kev_event_desc *row, unsigned nw)
{
    fprintf(f, "\n// %s's first %u word%s from its fields.\nstatic inline void ", row->name, nw,
            nw == 1 ? "" : "s");
    print_packer_signature(f, row, 1);
    fprintf(f, "\n{\n");
    for (unsigned n = 0; n < nw; n++) {
        fprintf(f, "    w[%u] = ", n);
        word_expr(f, row, n);
        fprintf(f, ";\n");
    }
    fprintf(f, "}\n");
}

// ---- the helpers' test cases ---------------------------------------------------------------------
// Under KEV_EMIT_GEN_TEST (test/unit/test_kev_emit.c): each generated helper called from an
// array of values, its parameters named, so that the test emits every generated helper with
// values of its own and holds the event and the firings against the row, a new row included.

// The test's struct (test_kev_emit.c): struct kev_emit_gen_case { unsigned cls, ev;
// void (*call)(unsigned how, const uint64_t *v, const char *s); const char *params[16]; },
// params the helper's parameters after `how`: the row's fields, then ?NAME for a site value.
#define MAXMADE 256u
static struct made {
    const struct kev_event_desc *row;
    struct site sv;
} made[MAXMADE];
static unsigned nmade;

static void case_add(const struct kev_event_desc *row, const struct site *sv)
{
    if (nmade == MAXMADE || row->nfields + sv->n >= 16u) {
        fail(row, "too many helpers or parameters for the test's cases", NULL);
        return;
    }
    made[nmade].row = row;
    made[nmade++].sv = *sv;
}

static void cases_print(FILE *f, int added)
{
    fprintf(f, "\n#ifdef KEV_EMIT_GEN_TEST\n");
    for (unsigned m = 0; m < nmade; m++) {
        const struct kev_event_desc *row = made[m].row;
        char lname[MAXTOK];
        unsigned k = 0;
        lower(lname, sizeof(lname), row->name);
        fprintf(f, "static void kev_emit_gen_call_%s(unsigned how, const uint64_t *v, const char *s)\n"
                   "{\n    (void)v;\n    (void)s;\n    kev_emit_%s(how", lname, lname);
        for (unsigned i = 0; i < row->nfields; i++, k++) {
            const struct kev_field_desc *fd = &row->fields[i];
            if (fd->layout == KEV_L_STRING)
                fprintf(f, ", s");
            else
                fprintf(f, ", (%s)v[%u]", fd->layout == KEV_L_WORD ? "uint32_t" : "uint64_t", k);
        }
        for (unsigned i = 0; i < made[m].sv.n; i++, k++)
            fprintf(f, ", v[%u]", k);
        fprintf(f, ");\n}\n");
    }
    fprintf(f, "static const struct kev_emit_gen_case kev_emit_gen_cases%s[] = {\n",
            added ? "_added" : "");
    for (unsigned m = 0; m < nmade; m++) {
        const struct kev_event_desc *row = made[m].row;
        char lname[MAXTOK];
        lower(lname, sizeof(lname), row->name);
        fprintf(f, "    { KEV_C_%s, 0x%xu, kev_emit_gen_call_%s, {", kev_class_name(row->cls),
                row->lo, lname);
        for (unsigned k = 0; k < row->nfields; k++)
            fprintf(f, " \"%s\",", row->fields[k].name);
        for (unsigned k = 0; k < made[m].sv.n; k++)
            fprintf(f, " \"?%s\",", made[m].sv.names[k]);
        fprintf(f, " NULL } },\n");
    }
    fprintf(f, "    { 0, 0, NULL, { NULL } },\n};\n#endif\n");
}

// ---- the rows ---------------------------------------------------------------------------------

// gen_pure: row's packer and its probes' firings (struct kev_dfire), which need no site.
static void gen_pure(FILE *f, const struct kev_event_desc *row)
{
    struct plan pl;
    plan_row(row, &pl);
    for (unsigned k = 0; k < pl.np; k++)
        print_maker(f, row, &pl.ps[k]);
    if (pl.npack)
        print_packer(f, row, pl.npack);
}

// gen_helper: row's emit helper, if it has one (and its test case).
static void gen_helper(FILE *f, const struct kev_event_desc *row)
{
    struct plan pl;
    plan_row(row, &pl);
    if (!pl.helper)
        return;
    print_helper(f, row, &pl);
    case_add(row, &pl.sv);
}

// gen_list: row's line of the listing (docs/event-table.md): what the generator writes for
// it, each by its name and parameters, so that a reader finds an event's helper by its name.
static void gen_list(FILE *f, const struct kev_event_desc *row)
{
    struct plan pl;
    plan_row(row, &pl);
    if (!pl.helper && !pl.npack && !pl.np)
        return;
    fprintf(f, "| %s | ", row->name);
    if (pl.helper) {
        fprintf(f, "`");
        print_signature(f, row, &pl, 0);
        fprintf(f, "`%s%s%s", pl.rule ? ", firing `" : "", pl.rule ? pl.rule->fn : "",
                pl.rule ? "`" : "");
    } else {
        fprintf(f, "-");
    }
    fprintf(f, " | ");
    if (pl.npack) {
        fprintf(f, "`");
        print_packer_signature(f, row, 0);
        fprintf(f, "`");
    } else {
        fprintf(f, "-");
    }
    fprintf(f, " | ");
    for (unsigned k = 0; k < pl.np; k++) {
        fprintf(f, "%s`%s(", k ? ", " : "", pl.ps[k].maker);
        for (unsigned i = 0; i < pl.ps[k].nparams; i++)
            fprintf(f, "%s%s", i ? ", " : "", pl.ps[k].params[i]);
        fprintf(f, ")`");
    }
    fprintf(f, "%s |\n", pl.np ? "" : "-");
}

// ids_distinct: no two names of the rows' own probes share a hash.
static int seen_ok(void *user, uint32_t id, const char *prov, const char *name)
{
    static struct {
        uint32_t id;
        char name[2 * DPROBE_ROW_PART + 3];
    } seen[256];
    static unsigned n;
    (void)user;
    for (unsigned k = 0; k < n; k++)
        if (seen[k].id == id) {
            char both[4 * DPROBE_ROW_PART + 16];
            snprintf(both, sizeof(both), "%s:::%s and %s", prov, name, seen[k].name);
            fail(NULL, "two probes of one id (rename one)", both);
            return 0;
        }
    if (n < 256) {
        seen[n].id = id;
        snprintf(seen[n].name, sizeof(seen[n].name), "%s:::%s", prov, name);
        n++;
    }
    return 0;
}

// same_file: a and b hold the same bytes.
static int same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = getc(fa), cb = getc(fb);
        same = ca == cb;
        if (ca == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: %s [-a] [-l] [-o FILE]\n"
               "Writes the kernel's side of the event table's rows (trace/kev_events.c) as a C\n"
               "header: each row probe's firing, the packers of the rows hand-written sites\n"
               "write, and the emit helpers.\n"
               "  -a, --added   only the rows added to the table (kev_events_add: a test build's)\n"
               "  -l, --list    instead, the listing of what it writes for each row, by name\n"
               "                (docs/event-table.md's last table)\n"
               "  -o FILE       write FILE (through FILE.<pid>.tmp) instead of standard output\n"
               "  -h, --help    this text\n", prog);
}

// list: the listing (-l): a row for each event the generator writes anything for.
static void list(FILE *f)
{
    fprintf(f, "\n### The kernel's side (tools/emitgen)\n\n"
               "| event | emit helper | packer | its probes' firings |\n|---|---|---|---|\n");
    for (unsigned i = 0; i < kev_event_table_len; i++)
        gen_list(f, kev_event_row(i));
}

// header: the generated header for rows [from, kev_event_rows()): the firings and packers,
// which need nothing of the kernel's, then, where kernel/include/kernel/kev_emit.h includes
// it (its site bracket), the helpers and their test cases.
// ---- the wire encodings ---------------------------------------------------------------------------
// Under KEV_WIRE_ROWS (the tracelogger's stream encoder, tracelogger/wire.c): each event's wire
// encoding (trace/kev_wire.h), kev_wire_row_enc's answers over the whole table as runs of event
// numbers, for a board that cannot carry the table; runs that take the default (both words as
// differences, KW_ENC(KW_E_DELTA, KW_E_DELTA) = 0) are left out.
static void wire_print(FILE *f)
{
    fprintf(f, "\n#if defined(KEV_WIRE_ROWS) && !defined(KEV_EMIT_GEN_WIRE)\n#define KEV_EMIT_GEN_WIRE\n"
               "// { class, first event, last event, a slot's encoding, a combine's later slots' }\n"
               "static const struct { uint8_t cls; uint16_t lo, hi; uint8_t first, later; } "
               "kev_wire_gen_rows[] = {\n");
    unsigned n = 0;
    for (unsigned cls = 0; cls < KEV_NCLASS; cls++) {
        unsigned lo = 0;
        uint8_t e1 = 0, e2 = 0;
        for (unsigned ev = 0; ev <= KEV_EVENT_MASK + 1u; ev++) {
            uint8_t a = 0, b = 0;
            if (ev <= KEV_EVENT_MASK) {
                a = kev_wire_row_enc(KEV_HEADER(KEV_TYPE_S, cls, ev, 0));
                b = kev_wire_row_enc(KEV_HEADER(KEV_TYPE_CC, cls, ev, 0));
            }
            if (ev > 0 && (a != e1 || b != e2 || ev > KEV_EVENT_MASK)) {
                if (e1 || e2) {
                    fprintf(f, "    { %u, %u, %u, 0x%02x, 0x%02x },\n", cls, lo, ev - 1u, e1, e2);
                    n++;
                }
                lo = ev;
            }
            e1 = a;
            e2 = b;
        }
    }
    fprintf(f, "};\n\n// A header's encoding byte (its CPU bits ignored): kev_wire_row_enc's.\n"
               "static inline uint8_t kev_wire_gen_enc(uint32_t header)\n{\n"
               "    unsigned cls = kev_hdr_class(header), ev = kev_hdr_event(header);\n"
               "    int later = kev_hdr_type(header) >= KEV_TYPE_CC;\n"
               "    for (unsigned i = 0; i < %u; i++)\n"
               "        if (kev_wire_gen_rows[i].cls == cls && ev >= kev_wire_gen_rows[i].lo &&\n"
               "            ev <= kev_wire_gen_rows[i].hi)\n"
               "            return later ? kev_wire_gen_rows[i].later : kev_wire_gen_rows[i].first;\n"
               "    return 0;\n}\n#endif\n", n);
}

static void header(FILE *f, int added)
{
    const char *guard = added ? "KEV_EMIT_GEN_ADDED_H" : "KEV_EMIT_GEN_H";
    const unsigned from = added ? kev_event_table_len : 0;
    fprintf(f, "// Generated by tools/emitgen from the event table's rows%s: do not edit, edit the "
               "row.\n// The rows' firings and packers; with kernel/include/kernel/kev_emit.h, "
               "which includes it,\n// the emit helpers. docs/event-table.md lists them.\n"
               "#ifndef %s\n#define %s\n\n#include <stdint.h>\n#include <d/dprobes.h>\n"
               "#include <trace/kev_events.h>\n#include <trace/kev_rows.h>\n"
               "#include <trace/kev_derived.h>\n",
            added ? " a test build adds" : " (trace/kev_events.c)", guard, guard);
    for (unsigned i = from; i < kev_event_rows(); i++)
        gen_pure(f, kev_event_row(i));
    fprintf(f, "\n#endif\n\n#if defined(KERNEL_KEV_EMIT_H) && !defined(%s_SITES)\n#define %s_SITES\n",
            guard, guard);
    for (unsigned i = from; i < kev_event_rows(); i++)
        gen_helper(f, kev_event_row(i));
    cases_print(f, added);
    fprintf(f, "\n#endif\n");
    if (!added)
        wire_print(f);
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    int added = 0, listing = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "-a") || !strcmp(argv[i], "--added")) {
            added = 1;
        } else if (!strcmp(argv[i], "-l") || !strcmp(argv[i], "--list")) {
            listing = 1;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else {
            fprintf(stderr, "%s: unknown argument '%s' (see --help)\n", prog, argv[i]);
            return 2;
        }
    }
    char tmp[4096];
    FILE *f = stdout;
    if (out) {
        // One name a process: several makes (one a board) may write the same header at once,
        // each renames its own copy over it, and the bytes are the same.
        snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", out, (long)getpid());
        if (!(f = fopen(tmp, "w"))) {
            perror(tmp);
            return 1;
        }
    }
    dprobe_rows_walk(seen_ok, NULL);
    if (listing)
        list(f);
    else
        header(f, added);
    if (out) {
        if (fclose(f) || failed) {
            remove(tmp);
            return 1;
        }
        if (same_file(tmp, out)) {  // (unchanged: the objects that include it stay built)
            remove(tmp);
            return 0;
        }
        if (rename(tmp, out)) {
            perror(out);
            remove(tmp);
            return 1;
        }
    }
    return failed;
}
