// SPDX-License-Identifier: MIT
// Names for the code addresses kevsql's tables give (fbt and pid slices, stack frames): the
// shared lookup every host tool uses (tools/include/kevhost/tool_syms.h: the capture's build ids, the
// files given, --symbols DIR, the build directory ...), over the trace whose rows are being
// made. That lookup is process-wide and serves one capture at a time, so it follows the trace
// asked about: a different trace (another connection's, or the next kev_open) ends the
// previous one's lookup and starts its own, with the options kevsql was given. A trace that is
// closed ends its lookup before its bytes are unmapped. Guarded by SQLite's second application
// mutex: the extension may run on several connections of one process.
#include <stdio.h>
#include <string.h>

#include "ks.h"
#include <kevhost/tool_syms.h>
#include <kevhost/syms_usdt.h>

SQLITE_EXTENSION_INIT3

#define KS_SYM_ARGS 64
static int opt_id[KS_SYM_ARGS];         // the options given (ks_syms_take), re-applied per trace
static const char *opt_val[KS_SYM_ARGS];
static int opt_n;
static const struct ks_trace *current;  // the trace the lookup serves, NULL none
static unsigned current_gen;
static unsigned gen;                    // a number per opened trace (pointers are reused)

static sqlite3_mutex *mutex(void)
{
    return sqlite3_mutex_alloc(SQLITE_MUTEX_STATIC_APP2);
}

int ks_syms_take(int id, const char *val)
{
    int k = syms_take("kevsql", id, val);
    if (k != 1)
        return k;
    if (opt_n == KS_SYM_ARGS) {
        fprintf(stderr, "kevsql: more than %d symbol options\n", KS_SYM_ARGS);
        return -1;
    }
    opt_id[opt_n] = id, opt_val[opt_n++] = val;
    syms_end(); // given again for each trace (follow)
    return 1;
}

unsigned ks_syms_gen(void)
{
    sqlite3_mutex *mx = mutex();
    sqlite3_mutex_enter(mx);
    unsigned g = ++gen;
    sqlite3_mutex_leave(mx);
    return g;
}

// The lookup for t, started if it serves another trace (the mutex held).
static void follow(const struct ks_trace *t)
{
    if (current == t && current_gen == t->sym_gen)
        return;
    syms_end();
    for (int i = 0; i < opt_n; i++)
        if (syms_take("kevsql", opt_id[i], opt_val[i]) < 0)
            break; // said when it was first given
    syms_trace("kevsql", t->data, t->len);
    current = t, current_gen = t->sym_gen;
}

void ks_syms_function(const struct ks_trace *t, uint64_t pc, char *fn, size_t n)
{
    sqlite3_mutex *mx = mutex();
    sqlite3_mutex_enter(mx);
    follow(t);
    syms_function(pc, fn, n);
    sqlite3_mutex_leave(mx);
}

void ks_syms_stack(const struct ks_trace *t, const uint64_t *pcs, unsigned depth, char *out,
                   size_t n)
{
    sqlite3_mutex *mx = mutex();
    sqlite3_mutex_enter(mx);
    follow(t);
    syms_stack(pcs, depth, ";", out, n);
    sqlite3_mutex_leave(mx);
}

int ks_syms_usdt(const struct ks_trace *t, const struct kev_fields *fs, struct syms_usdt_firing *f,
                 struct syms_usdt *named)
{
    sqlite3_mutex *mx = mutex();
    sqlite3_mutex_enter(mx);
    follow(t);
    int rc = syms_usdt_firing(fs, f);
    if (rc == 0 && f->p) {  // (the table is the lookup's: copied while it is t's)
        *named = *f->p;
        f->p = named;
    }
    sqlite3_mutex_leave(mx);
    return rc;
}

int ks_syms_usdt_name(const struct ks_trace *t, uint64_t site, char *out, size_t n)
{
    sqlite3_mutex *mx = mutex();
    sqlite3_mutex_enter(mx);
    follow(t);
    const struct syms_usdt *p = syms_usdt(site);
    if (p)
        snprintf(out, n, "%s", p->probe);
    sqlite3_mutex_leave(mx);
    return p ? 0 : -1;
}

void ks_syms_forget(const struct ks_trace *t)
{
    sqlite3_mutex *mx = mutex();
    sqlite3_mutex_enter(mx);
    if (current == t) {
        syms_end();
        current = NULL;
    }
    sqlite3_mutex_leave(mx);
}
