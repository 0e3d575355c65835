// SPDX-License-Identifier: MIT
// The probe table behind d/dprobes.h: ids are computed from kernel-call and IRQ numbers, the
// rest is one static list. Names of kernel calls come from the kernel's ABI header
// (uapi/kcall.h, KCALL_LIST); the table holds no mutable state.
#include <d/dprobes.h>
#include <d/dfbt.h>
#include "dutil.h"

#if defined(__has_include)
#if __has_include(<uapi/kcall.h>)
#include <uapi/kcall.h>
#define D_HAVE_KCALL 1
#endif
#endif

#ifdef D_HAVE_KCALL
_Static_assert(KC_COUNT <= DPROBE_KCALL_MAX,
               "more kernel calls than kercall probe ids: raise DPROBE_KCALL_MAX in d/dprobes.h");
#else
/* Placeholder for builds without the kernel headers on the include path. */
#define KCALL_LIST(X) X(13, MsgSend, 5) X(14, MsgReceive, 4) X(15, MsgReply, 4)
#endif

#define D_KCALL_NAME(num, name, nargs) [num] = #name,
static const char *const kcall_names[DPROBE_KCALL_MAX] = { KCALL_LIST(D_KCALL_NAME) };
#undef D_KCALL_NAME

static const char *const irq_names[DPROBE_IRQ_MAX] = {
    "irq0", "irq1", "irq2", "irq3", "irq4", "irq5", "irq6", "irq7", "irq8", "irq9", "irq10",
    "irq11", "irq12", "irq13", "irq14", "irq15", "irq16", "irq17", "irq18", "irq19", "irq20",
    "irq21", "irq22", "irq23", "irq24", "irq25", "irq26", "irq27", "irq28", "irq29", "irq30",
    "irq31",
};

#define D_FIXED_DESC(id, prov, name, hooks) { prov, "", "", name },
static const struct dprobe_desc fixed[] = { DPROBE_FIXED_LIST(D_FIXED_DESC) };
#undef D_FIXED_DESC
#define D_FIXED_HOOKS(id, prov, name, hooks) (uint16_t)(hooks),
static const uint16_t fixed_hooks[] = { DPROBE_FIXED_LIST(D_FIXED_HOOKS) };
#undef D_FIXED_HOOKS

uint32_t dprobe_hooks(uint32_t id)
{
    if (id >= DPROBE_KCALL_BASE && id < DPROBE_IRQ_BASE)
        return DPROBE_H_KER_CALL;
    if (id >= DPROBE_IRQ_BASE && id < DPROBE_FIXED_BASE)
        return DPROBE_H_INT;
    if (id >= DPROBE_FIXED_BASE && id < DPROBE_COUNT)
        return fixed_hooks[id - DPROBE_FIXED_BASE];
    if (DPROBE_IS_ROW(id))
        return DPROBE_H_CLASSES | DPROBE_H_EXIT;
    return 0;
}
_Static_assert(sizeof(fixed) / sizeof(fixed[0]) == DPROBE_COUNT - DPROBE_FIXED_BASE,
               "one description per named probe");

static const struct dfbt *fbt_table;

void dprobe_fbt_use(const struct dfbt *t)
{
    fbt_table = t;
}

const struct dfbt *dprobe_fbt_table(void)
{
    return fbt_table;
}

/* entry_pair: the entry probe of prov:mod:func (second 0), or the one paired with it (`end`:
 * a function's or kernel call's return, an interrupt's exit). 0. */
static int entry_pair(struct dprobe_desc *d, const char *prov, const char *mod, const char *func,
                      uint32_t second, const char *end)
{
    *d = (struct dprobe_desc){ prov, mod, func, second ? end : "entry" };
    return 0;
}

/* fbt_get: the fbt probe `id` names, if the table has that function and it can be probed
 * there (entry or return): dprobe_get's answer for fbt ids. */
static int fbt_get(uint32_t id, struct dprobe_desc *d)
{
    uint32_t f = DPROBE_FBT_FUNC(id);
    if (!fbt_table || f >= fbt_table->nfuncs)
        return -1;
    const struct dfbt_func *fn = &fbt_table->funcs[f];
    if ((id & 1u) ? fn->df_return_why != DFBT_OK : fn->df_entry_why != DFBT_OK)
        return -1;
    return entry_pair(d, "fbt", DPROBE_FBT_MODULE, dfbt_name(fbt_table, f), id & 1u, "return");
}

static uint32_t dprobe_next_kernel(uint32_t id);
static const struct dprobe_usdt *usdt_sites;
static unsigned usdt_n;

void dprobe_usdt_use(const struct dprobe_usdt *sites, unsigned n)
{
    usdt_sites = sites;
    usdt_n = n < DPROBE_USDT_MAX ? n : DPROBE_USDT_MAX;
}

static int usdt_get(uint32_t id, struct dprobe_desc *d)
{
    uint32_t k = id - DPROBE_USDT_BASE;
    if (k >= usdt_n)
        return -1;
    const struct dprobe_usdt *u = &usdt_sites[k];
    d->prov = u->prov;
    d->mod = u->mod;
    d->func = u->func;
    d->name = u->name;
    return 0;
}

static const struct dprobe_rowset *rowset;

void dprobe_rows_use(const struct dprobe_rowset *rows)
{
    rowset = rows;
}

static int row_get(uint32_t id, struct dprobe_desc *d)
{
    return rowset ? rowset->get(id, d) : -1;
}

static const struct dprobe_pidfn *pid_fns;
static unsigned pid_n;

void dprobe_pid_use(const struct dprobe_pidfn *fns, unsigned n)
{
    pid_fns = fns;
    pid_n = n < DPROBE_PID_MAX ? n : DPROBE_PID_MAX;
}

const struct dprobe_pidfn *dprobe_pid_fn(unsigned k)
{
    return k < pid_n ? &pid_fns[k] : NULL;
}

unsigned dprobe_pid_count(void)
{
    return pid_n;
}

/* pid_get: a pid id's function and name; the provider is "pid" (the process is the
 * object's, not the id's). Not in dprobe_next's walk: a pid probe exists once a description
 * names its process, as in DTrace, where dtrace -l lists them only for -p PID. */
static int pid_get(uint32_t id, struct dprobe_desc *d)
{
    const struct dprobe_pidfn *f = dprobe_pid_fn((id - DPROBE_PID_BASE) / 2u);
    if (!f)
        return -1;
    return entry_pair(d, "pid", f->mod, f->func, id & 1u, "return");
}

const struct dprobe_usdt *dprobe_usdt_site(uint32_t id)
{
    return DPROBE_IS_USDT(id) && id - DPROBE_USDT_BASE < usdt_n
               ? &usdt_sites[id - DPROBE_USDT_BASE] : NULL;
}

/* The walk: the kernel's ids, the USDT sites', then the rows' (pid ids are not walked). */
uint32_t dprobe_next(uint32_t id)
{
    const uint32_t rows = rowset ? rowset->next(DPROBE_NONE) : 0;
    if (id >= DPROBE_ROW_BASE)
        return rowset ? rowset->next(id) : 0;
    if (id >= DPROBE_USDT_BASE)
        return id + 1u < DPROBE_USDT_BASE + usdt_n ? id + 1u : rows;
    uint32_t n = dprobe_next_kernel(id);
    return n ? n : usdt_n ? DPROBE_USDT_BASE : rows;
}

static uint32_t dprobe_next_kernel(uint32_t id)
{
    struct dprobe_desc d;
    for (id++; id < DPROBE_COUNT; id++)
        if (dprobe_get(id, &d) == 0)
            return id;
    if (!fbt_table)
        return 0;
    if (id < DPROBE_FBT_BASE)
        id = DPROBE_FBT_BASE;
    for (; id < DPROBE_FBT_BASE + 2u * fbt_table->nfuncs; id++)
        if (fbt_get(id, &d) == 0)
            return id;
    return 0;
}

int dprobe_get(uint32_t id, struct dprobe_desc *d)
{
    if (DPROBE_IS_USDT(id))
        return usdt_get(id, d);
    if (DPROBE_IS_ROW(id))
        return row_get(id, d);
    if (DPROBE_IS_PID(id))
        return pid_get(id, d);
    if (DPROBE_IS_FBT(id))
        return fbt_get(id, d);
    static const struct dprobe_desc dtrace[3] = {
        { "dtrace", "", "", "BEGIN" }, { "dtrace", "", "", "END" }, { "dtrace", "", "", "ERROR" },
    };
    if (id >= DPROBE_BEGIN && id <= DPROBE_ERROR) {
        *d = dtrace[id - DPROBE_BEGIN];
        return 0;
    }
    if (id >= DPROBE_KCALL_BASE && id < DPROBE_IRQ_BASE) {
        const char *func = kcall_names[(id - DPROBE_KCALL_BASE) / 2];
        if (!func)
            return -1;
        return entry_pair(d, "kercall", "", func, (id - DPROBE_KCALL_BASE) % 2, "return");
    }
    if (id >= DPROBE_IRQ_BASE && id < DPROBE_FIXED_BASE)
        return entry_pair(d, "interrupt", "", irq_names[(id - DPROBE_IRQ_BASE) / 2],
                          (id - DPROBE_IRQ_BASE) % 2, "exit");
    if (id >= DPROBE_FIXED_BASE && id < DPROBE_COUNT) {
        *d = fixed[id - DPROBE_FIXED_BASE];
        return 0;
    }
    return -1;
}

/* class_match: matches c against the bracket expression at *pp ("[...]"); advances *pp past
 * it. Returns 1/0, or -1 if the bracket is not closed (then '[' is literal). */
static int class_match(const char **pp, char c)
{
    const char *p = *pp + 1;
    int neg = 0, hit = 0;
    if (*p == '!') {
        neg = 1;
        p++;
    }
    const char *start = p;
    while (*p && (*p != ']' || p == start)) {
        if (p[1] == '-' && p[2] && p[2] != ']') {
            if (c >= p[0] && c <= p[2])
                hit = 1;
            p += 3;
        } else {
            if (c == *p)
                hit = 1;
            p++;
        }
    }
    if (*p != ']')
        return -1;
    *pp = p + 1;
    return hit != neg;
}

int dprobe_glob(const char *p, const char *s)
{
    if (*p == 0)
        return 1;
    /* Iterative matcher with one backtrack point for the last '*'. */
    const char *star = NULL, *retry = NULL;
    for (;;) {
        if (*p == '*') {
            star = ++p;
            retry = s;
            continue;
        }
        if (*s == 0) {
            if (*p == 0)
                return 1;
            return 0;
        }
        if (*p == '?') {
            p++;
            s++;
            continue;
        }
        if (*p == '[') {
            const char *q = p;
            int m = class_match(&q, *s);
            if (m == 1) {
                p = q;
                s++;
                continue;
            }
            if (m == 0)
                goto mismatch;
        }
        if (*p == '\\' && p[1])
            p++;
        if (*p && *p == *s) {
            p++;
            s++;
            continue;
        }
    mismatch:
        if (!star)
            return 0;
        p = star;
        s = ++retry;
    }
}

/* Solaris's sdt provider names the interrupt handler's start and end (interrupt-start,
 * interrupt-complete), which scripts written for it use; here they are the interrupt
 * provider's irqN entry and exit: the same firings, arg0 the line (Solaris's is the device's
 * dev_info, which this kernel has none of). */
int dprobe_sdt_alias(const struct dprobe_desc *d, struct dprobe_desc *a)
{
    if (strcmp(d->prov, "interrupt") != 0)
        return 0;
    a->prov = "sdt";
    a->mod = "";
    a->func = "";
    a->name = strcmp(d->name, "entry") == 0 ? "interrupt-start" : "interrupt-complete";
    return 1;
}

/* Solaris's syscall provider, the first one DTrace users reach for: its probes are the entry
 * and return of each system call, and this kernel's system calls are its kernel calls. So
 * syscall::<Name>:entry and :return name the kercall probes (the same ids, arguments and
 * firings); probefunc is the kernel call's name, as QNX spells it. */
int dprobe_syscall_alias(const struct dprobe_desc *d, struct dprobe_desc *a)
{
    if (strcmp(d->prov, "kercall") != 0)
        return 0;
    *a = *d;
    a->prov = "syscall";
    return 1;
}
