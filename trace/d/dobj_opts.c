// SPDX-License-Identifier: MIT
// Option parsing for D programs run on a target (d/dobj_opts.h). Freestanding: no libc
// number parsing, so the target's dtrace and the host's dcompile take exactly the same text.
#include <d/dobj_opts.h>
#include <d/dcons.h>
#include <d/dvm.h>
#include <d/optval.h>
#include "dutil.h"

#define DOBJ_MAX_BUFFER (1u << 20) /* no board has room for a larger buffer */

void dobj_defaults(struct dobj_file_hdr *h)
{
    *h = (struct dobj_file_hdr){
        .magic = DOBJ_MAGIC, .version = DOBJ_VERSION, .bufsize = 8192, .aggsize = 262144,
        .dynvarsize = 65536, .specsize = 4096, .nspec = 1, .bufpolicy = DVM_BUF_SWITCH,
        .switchrate_ms = 1000,
    };
}

static int fail(char *err, size_t errlen, const char *what, const char *name, const char *val)
{
    d_strlcpy(err, what, errlen);
    d_strlcat(err, name, errlen);
    if (val) {
        d_strlcat(err, ": ", errlen);
        d_strlcat(err, val, errlen);
    }
    return -1;
}

/* set_flag: an option set by its name alone, whatever its value: 1 if name is one. */
static int set_flag(struct dobj_file_hdr *h, const char *name)
{
    /* the compiler took these (-Z, the script arguments' checks); destructive allows the
     * consumer's system( ) and freopen( ), which this engine's kernel side never runs: a
     * board's consumer has no shell or files to give them (docs/d-subset.md) */
    if (!d_strcmp(name, "zdefs") || !d_strcmp(name, "defaultargs") ||
        !d_strcmp(name, "argref"))
        return 1;
    if (!d_strcmp(name, "destructive"))
        h->destructive = 1;
    else if (!d_strcmp(name, "quiet"))
        h->quiet = 1;
    else if (!d_strcmp(name, "aggpack")) /* as quiet: set, whatever the value */
        h->aggpack = 1;
    else
        return 0;
    return 1;
}

/* set_word: an option whose value is one of its words: -1 when name is none of them, 0 when
 * set, 1 when val is not one of its words. */
static int set_word(struct dobj_file_hdr *h, const char *name, const char *val)
{
    if (!d_strcmp(name, "bufpolicy")) {
        if (!d_strcmp(val, "switch")) h->bufpolicy = DVM_BUF_SWITCH;
        else if (!d_strcmp(val, "fill")) h->bufpolicy = DVM_BUF_FILL;
        else if (!d_strcmp(val, "ring")) h->bufpolicy = DVM_BUF_RING;
        else return 1;
        return 0;
    }
    if (!d_strcmp(name, "bufresize")) {
        if (d_strcmp(val, "auto") && d_strcmp(val, "manual"))
            return 1;
        h->bufresize_manual = !d_strcmp(val, "manual");
        return 0;
    }
    if (!d_strcmp(name, "encoding")) { /* as dt_opt_encoding: ascii or utf8 */
        if (d_strcmp(val, "ascii") && d_strcmp(val, "utf8"))
            return 1;
        h->encoding = d_strcmp(val, "utf8") ? DCONS_ENC_ASCII : DCONS_ENC_UTF8;
        return 0;
    }
    return -1;
}

/* set_number: an option whose value is a number, a rate or a size other than a buffer's:
 * -1 when name is none of them, 0 when set (or only checked), 1 when val is out of its range. */
static int set_number(struct dobj_file_hdr *h, const char *name, const char *val)
{
    uint64_t v;
    if (!d_strcmp(name, "switchrate")) { /* the board's consumer wakes in whole ms */
        if (d_optval_rate(val, &v) != 0 || v > 3600000000000ull)
            return 1;
        h->switchrate_ms = v < 1000000u ? 1u : (uint32_t)(v / 1000000u);
        return 0;
    }
    if (!d_strcmp(name, "nspec")) {
        if (d_optval_int(val, &v) != 0 || v > 1000u)
            return 1;
        h->nspec = (uint32_t)v;
        return 0;
    }
    if (!d_strcmp(name, "prio")) { /* the board's consumer's priority (ours: no DTrace option) */
        if (d_optval_int(val, &v) != 0 || v < 1u || v > DOBJ_PRIO_MAX)
            return 1;
        h->prio = (uint32_t)v;
        return 0;
    }
    if (!d_strcmp(name, "cpu")) { /* the CPU to trace; the kernel checks that it exists */
        if (d_optval_int(val, &v) != 0 || v >= DVM_MAXCPU)
            return 1;
        h->cpu_only = (uint32_t)v + 1u;
        return 0;
    }
    if (!d_strcmp(name, "stackframes") || !d_strcmp(name, "ustackframes") ||
        !d_strcmp(name, "jstackframes") || !d_strcmp(name, "jstackstrsize"))
        /* the frames and strings a stack action keeps: this engine's stacks hold
         * DVM_STACK_MAXDEPTH frames, and there is no Java helper to name jstack( )'s (which
         * is ustack( ) here, as DTrace's is for a process without one): checked, kept as is */
        return d_optval_size(val, &v) != 0;
    if (!d_strcmp(name, "strsize")) /* the compiler took it; only checked here */
        return d_optval_size(val, &v) != 0 || v < 2 || v > DIF_STRSIZE_MAX;
    return -1;
}

/* set_buffer: a buffer's size (bufsize, aggsize, dynvarsize, specsize), else the option is
 * not supported. 0, or -1 with the message in err. */
static int set_buffer(struct dobj_file_hdr *h, const char *name, const char *val, char *err,
                      size_t errlen)
{
    uint64_t v;
    uint32_t *field = !d_strcmp(name, "bufsize") ? &h->bufsize
                    : !d_strcmp(name, "aggsize") ? &h->aggsize
                    : !d_strcmp(name, "dynvarsize") ? &h->dynvarsize
                    : !d_strcmp(name, "specsize") ? &h->specsize : NULL;
    if (!field)
        return fail(err, errlen, "unsupported option: ", name, NULL);
    if (d_optval_size(val, &v) != 0 || !v)
        return fail(err, errlen, "invalid value for option ", name, val);
    if (v > DOBJ_MAX_BUFFER) { /* a board's memory, not the syntax, refuses it: say so */
        fail(err, errlen, "invalid value for option ", name, val);
        d_strlcat(err, " (a board takes at most 1m)", errlen);
        return -1;
    }
    *field = (uint32_t)v;
    return 0;
}

int dobj_set_option(struct dobj_file_hdr *h, const char *name, const char *val, char *err,
                    size_t errlen)
{
    if (set_flag(h, name))
        return 0;
    if (!val)
        return fail(err, errlen, "invalid value for option ", name, "(none)");
    int rc = set_word(h, name, val);
    if (rc < 0)
        rc = set_number(h, name, val);
    if (rc > 0)
        return fail(err, errlen, "invalid value for option ", name, val);
    return rc == 0 ? 0 : set_buffer(h, name, val, err, errlen);
}

int dobj_apply_options(struct dobj_file_hdr *h, const struct dcc_out *co, char **xs, int nx,
                       char *err, size_t errlen)
{
    for (unsigned i = 0; i < co->nopts; i++)
        if (dobj_set_option(h, co->opts[i].name, co->opts[i].value[0] ? co->opts[i].value : NULL,
                            err, errlen) != 0)
            return -1;
    for (int i = 0; i < nx; i++) {
        char *eq = xs[i];
        while (*eq && *eq != '=')
            eq++;
        if (*eq)
            *eq++ = '\0';
        else
            eq = NULL;
        if (dobj_set_option(h, xs[i], eq, err, errlen) != 0)
            return -1;
    }
    return 0;
}
