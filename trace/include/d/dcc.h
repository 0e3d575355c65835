// SPDX-License-Identifier: MIT
// The D compiler: D source text in, a DIF object (d/dif.h) out. Portable freestanding C: all
// memory comes from the caller's arena; errors come back as text, never printed.
#ifndef D_DCC_H
#define D_DCC_H

#include <stddef.h>
#include <stdint.h>

#define DCC_MAXOPTS 32

struct dcc_opt {
    char name[24];
    char value[40];
    int line;            /* of the #pragma, for D_PRAGMA_OPTSET */
};

/* Macro variables: the compiling process's own ids, as dtrace(1) gives them ($pid is the
 * dtrace process's; no groups, sessions or users here: the front end says what it has). */
struct dcc_macros {
    int64_t pid, ppid, pgid, sid, uid, gid, euid, egid;
    int64_t target;      /* $target: the process of -c / -p; 0 when there is none */
};

struct dcc_in {
    const char *src;     /* script text (need not be NUL-terminated) */
    size_t len;
    unsigned strsize;    /* string size (0: 256); #pragma D option strsize overrides */
    int errtags;         /* prefix messages with [D_TAG] */
    const struct dcc_macros *macros; /* $pid, $ppid...; NULL: none is defined */
};

struct dcc_out {
    void *obj;           /* 8-byte aligned, inside the arena */
    size_t objlen;
    unsigned nprobes;    /* probes matched */
    unsigned nopts;      /* #pragma D option settings, in source order */
    struct dcc_opt opts[DCC_MAXOPTS];
    int line;            /* on error: source line */
    char tag[24];        /* on error: D_* tag */
    char err[256];       /* on error: "[TAG] line N: message" or "line N: message" */
};

/* dcc_compile: returns 0 with out->obj set, or -1 with out->err set. The arena must outlive the
 * object; about 1 MiB is plenty for scripts of a few hundred lines. */
int dcc_compile(const struct dcc_in *in, void *arena, size_t arena_len, struct dcc_out *out);

#endif
