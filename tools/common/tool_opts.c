// SPDX-License-Identifier: MIT
// The host tools' option loop over getopt_long (<kevhost/tool_opts.h>): the getopt_long names
// and the --help lines are made from one table, -h/--help is every tool's, and a bad option is
// answered the same way everywhere (named, a pointer to --help, exit 2). The getopt tables are
// built once per loop into static storage: one loop at a time, as getopt_long itself allows.
#include <kevhost/tool_opts.h>
#include <getopt.h>
#include <stdarg.h>
#include <string.h>

#define MAX_OPTS 64
#define HELP_ID (-100)              // -h/--help's id inside the loop
#define LONG_VAL 0x4000             // getopt_long's value for flat[i]'s long name: LONG_VAL + i

static const struct tool_opt help_opt = { HELP_ID, 'h', "help", NULL, "this text", NULL };

static struct option longs[MAX_OPTS + 1];
static char shorts[2 * MAX_OPTS + 2];
static const struct tool_opt *flat[MAX_OPTS];
static unsigned nflat;
static const struct tool_cmd *built;

// flatten: t's rows in order, spliced tables in place; 0, or -1 past MAX_OPTS.
static int flatten(const struct tool_opt *t)
{
    for (; t->id || t->also; t++) {
        if (t->also) {
            if (flatten(t->also))
                return -1;
            continue;
        }
        if (nflat == MAX_OPTS)
            return -1;
        flat[nflat++] = t;
    }
    return 0;
}

static int build(const struct tool_cmd *c)
{
    unsigned nl = 0, ns = 0;
    nflat = 0;
    if (flatten(c->opts) || nflat == MAX_OPTS) {
        fprintf(stderr, "%s: more than %d options: raise MAX_OPTS in tool_opts.c\n", c->name,
                MAX_OPTS);
        return -1;
    }
    flat[nflat++] = &help_opt;
    shorts[ns++] = ':';             // a missing value is ':', told apart from an unknown option
    for (unsigned i = 0; i < nflat; i++) {
        const struct tool_opt *o = flat[i];
        if (o->shrt) {
            shorts[ns++] = o->shrt;
            if (o->arg)
                shorts[ns++] = ':';
        }
        if (o->lng)
            longs[nl++] = (struct option){ o->lng, o->arg ? required_argument : no_argument,
                                           NULL, (int)i + LONG_VAL };
    }
    shorts[ns] = 0;
    memset(&longs[nl], 0, sizeof(longs[nl]));
    built = c;
    return 0;
}

static const struct tool_opt *by_short(int ch)
{
    for (unsigned i = 0; i < nflat; i++)
        if (flat[i]->shrt == ch)
            return flat[i];
    return NULL;
}

int tool_usage_error(const struct tool_cmd *c, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", c->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "; %s --help lists the options\n", c->name);
    return 2;
}

int tool_opts_next(const struct tool_cmd *c, struct tool_args *a)
{
    if (built != c) {
        if (build(c))
            return TOOL_OPTS_EXIT_BAD;
        optind = 1;
        opterr = 0;
    }
    int li = -1;
    int ch = getopt_long(a->argc, a->argv, shorts, longs, &li);
    a->ind = optind;
    a->val = optarg;
    if (ch == -1) {
        built = NULL;
        return TOOL_OPTS_END;
    }
    const char *bad = a->argv[optind - 1];
    const struct tool_opt *o = NULL;
    if (ch >= LONG_VAL)
        o = flat[ch - LONG_VAL];
    else if (ch != '?' && ch != ':')
        o = by_short(ch);
    if (ch == ':') {
        // optopt: the short letter, or the long option's index-coded value
        const struct tool_opt *m = optopt >= LONG_VAL ? flat[optopt - LONG_VAL]
                                                                : by_short(optopt);
        built = NULL;
        if (m && optopt >= LONG_VAL)
            return tool_usage_error(c, "--%s needs its %s", m->lng, m->arg), TOOL_OPTS_EXIT_BAD;
        return tool_usage_error(c, "-%c needs its %s", optopt, m ? m->arg : "value"),
               TOOL_OPTS_EXIT_BAD;
    }
    if (!o) {
        built = NULL;
        if (optopt && optopt < LONG_VAL && strncmp(bad, "--", 2))
            tool_usage_error(c, "unknown option -%c", optopt);
        else
            tool_usage_error(c, "unknown option %s", bad);
        return TOOL_OPTS_EXIT_BAD;
    }
    if (o == &help_opt) {
        built = NULL;
        tool_help(c, stdout);
        return TOOL_OPTS_EXIT_OK;
    }
    return o->id;
}

// tool_help_line: one option's lines, its names in a column TOOL_OPT_HELP_WIDTH wide.
void tool_help_line(FILE *f, const struct tool_opt *o)
{
    char names[96];
    int n;
    if (o->shrt && o->lng)
        n = snprintf(names, sizeof(names), "-%c, --%s", o->shrt, o->lng);
    else if (o->shrt)
        n = snprintf(names, sizeof(names), "-%c", o->shrt);
    else
        n = snprintf(names, sizeof(names), "--%s", o->lng);
    if (o->arg && n > 0 && (size_t)n < sizeof(names))
        snprintf(names + n, sizeof(names) - (size_t)n, " %s", o->arg);
    int w = fprintf(f, "  %s", names);
    if (w >= TOOL_OPT_HELP_WIDTH) {     // two spaces at least before the help
        fputc('\n', f);
        w = 0;
    }
    fprintf(f, "%*s", TOOL_OPT_HELP_WIDTH + 1 - w, "");
    for (const char *h = o->help; *h; h++) {
        fputc(*h, f);
        if (*h == '\n' && h[1])
            fprintf(f, "%*s", TOOL_OPT_HELP_WIDTH + 1, "");
    }
    fputc('\n', f);
}

static void help_table(FILE *f, const struct tool_opt *t)
{
    for (; t->id || t->also; t++) {
        if (t->also)
            help_table(f, t->also);
        else
            tool_help_line(f, t);
    }
}

void tool_help(const struct tool_cmd *c, FILE *f)
{
    fprintf(f, "usage: %s %s\n", c->name, c->synopsis);
    if (c->about)
        fputs(c->about, f);
    help_table(f, c->opts);
    tool_help_line(f, &help_opt);
    if (c->tail)
        fputs(c->tail, f);
}

int tool_opts_exit(int r)
{
    return r == TOOL_OPTS_EXIT_OK ? 0 : 2;
}

int tool_one_file(const struct tool_cmd *c, const struct tool_args *a, const char **file)
{
    if (a->ind >= a->argc)
        return tool_usage_error(c, "no FILE given");
    if (a->ind + 1 < a->argc) {
        fprintf(stderr, "%s: only one FILE, got %s and %s\n", c->name, a->argv[a->ind],
                a->argv[a->ind + 1]);
        return 2;
    }
    *file = a->argv[a->ind];
    return 0;
}
