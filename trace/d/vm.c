// SPDX-License-Identifier: MIT
// The DIF interpreter. It runs only verified programs (dif_verify), so opcodes, registers,
// indices and branch targets are known good and every program ends in RET within
// DIF_MAXPROG steps (branches only go forward). What it still checks, because only run
// time knows: every address it reads (inside one of the engine's own regions, aligned),
// divisors, tuple and record stack depth and types, scratch space, string bounds (strsize).
// Any failure stops the program with a fault code; nothing here can crash or loop.
#include "dvm_impl.h"
#include <d/dprinfo.h>
#include <d/duname.h>
#include <d/ddevinfo.h>
#include <d/dstacks.h>
#include <trace/kev_bytes.h>

dvm_uread_fn dvm_uread;
dvm_user_ok_fn dvm_user_ok;
dvm_kread_fn dvm_kread;
dvm_nrunnable_fn dvm_nrunnable;

/* user_refused: a stack action (ustack, ucaller, ustackdepth) in a firing whose process the
 * consumer may not trace (dvm_user_ok): the clause faults with DVM_F_UPRIV, an ERROR counted as
 * any other. (copyin's reader says so itself: DVM_UREAD_PRIV.) */
static int user_refused(struct dvm_cpu *c)
{
    if (!dvm_user_ok || dvm_user_ok())
        return 0;
    c->fault = DVM_F_UPRIV;
    return 1;
}

/* kernel_refused: an action that gives a kernel code address (stack( )'s kernel frames,
 * caller) for a consumer that may not see kernel addresses (st->scrub: the kernel's consumer
 * without KAPP_F_PRIV): the clause faults with DVM_F_KPRIV, an ERROR counted as any other,
 * DTrace's dtrace_kernel rule. */
static int kernel_refused(struct dvm_cpu *c)
{
    if (!c->st->scrub)
        return 0;
    c->fault = DVM_F_KPRIV;
    return 1;
}

__attribute__((weak)) int dvm_lwpinfo(uint32_t who, struct dvm_lwpinfo *out)
{
    (void)who, (void)out;
    return -1;
}

__attribute__((weak)) const char *dvm_uname(unsigned member)
{
    (void)member;
    return "";
}

__attribute__((weak)) int dvm_devinfo(unsigned member, uint64_t line, int64_t *out)
{
    (void)member, (void)line, (void)out;
    return -1;
}

__attribute__((weak)) const char *dvm_devname(uint64_t major)
{
    (void)major;
    return NULL;
}

/* the engine's own dvm_ppid: the process's entry in the host's dvm_lwpinfo (a who holds 16
 * bits of pid, as the kernel's and a capture's do) */
__attribute__((weak)) int dvm_ppid(int32_t pid, int32_t *ppid)
{
    struct dvm_lwpinfo li = { 0 };
    if (pid <= 0 || pid > 0xffff || dvm_lwpinfo((uint32_t)pid << 16, &li) != 0)
        return -1;
    *ppid = li.ppid;
    return 0;
}

/* progenyof: whether process cur is pid or one of its descendants: as Solaris's, which walks
 * p_parent from the current process, the walk goes up the parents the host knows (pid 0, the
 * kernel, is every process's last ancestor, as sched is Solaris's) and stops at a process the
 * host does not know; bounded, so that a damaged table cannot loop. */
static uint64_t progenyof(int32_t cur, int64_t pid)
{
    for (unsigned k = 0; k < 64; k++) {
        if (cur == pid)
            return 1;
        if (cur <= 0 || dvm_ppid(cur, &cur) != 0)
            return 0;
    }
    return 0;
}

/* Thread states (uapi/kstate.h's numbers, which the trace's events carry) as Solaris's
 * (d/dprinfo.h): the blocked ones sleep on an object of a kind. */
enum { KS_DEAD = 0, KS_RUNNING = 1, KS_READY = 2, KS_STOPPED = 3, KS_SEND = 4, KS_RECEIVE = 5,
       KS_REPLY = 6, KS_NANOSLEEP = 12, KS_MUTEX = 13, KS_CONDVAR = 14, KS_JOIN = 15,
       KS_INTR = 16, KS_SEM = 17 };

static unsigned sobj_of(unsigned st)
{
    switch (st) {
    case KS_SEND: case KS_RECEIVE: case KS_REPLY: return DPR_SOBJ_SHUTTLE;
    case KS_MUTEX: return DPR_SOBJ_USER_PI;
    case KS_CONDVAR: case KS_NANOSLEEP: case KS_JOIN: case KS_INTR: return DPR_SOBJ_CV;
    case KS_SEM: return DPR_SOBJ_SEMA;
    default: return 0;
    }
}

/* pr_state (sname: pr_sname) of kernel state st */
static uint64_t state_of(unsigned st, int sname)
{
    static const char names[] = "?SRZTO";
    unsigned s = st == KS_RUNNING ? DPR_SONPROC : st == KS_READY ? DPR_SRUN
               : st == KS_STOPPED ? DPR_SSTOP : st == KS_DEAD ? DPR_SZOMB
               : sobj_of(st) ? DPR_SSLEEP : 0;
    return sname ? (uint64_t)(uint8_t)names[s == DPR_SONPROC ? 5 : s] : s;
}

/* prinfo: DIF_S_PRINFO's member of thread (or process) who, as d/dprinfo.h maps it. */
static uint64_t prinfo(int64_t member, uint64_t who)
{
    if (member == DPR_RSTATE || member == DPR_RSNAME)
        return state_of((unsigned)who, member == DPR_RSNAME);
    struct dvm_lwpinfo li = { 0 };
    int ok = who <= UINT32_MAX && dvm_lwpinfo((uint32_t)who, &li) == 0;
    switch (member) {
    case DPR_STATE: case DPR_SNAME:
        return ok ? state_of(li.state, member == DPR_SNAME) : member == DPR_SNAME ? '?' : 0;
    case DPR_STYPE: /* the object it sleeps on; woken, the one it slept on (its wakeup's) */
        return !ok ? 0 : sobj_of(li.state) ? sobj_of(li.state)
             : li.state == KS_READY ? sobj_of(li.left) : 0;
    case DPR_FLAG:
        return !ok ? 0 : (who >> 16 == 0 ? DPR_PR_ISSYS : 0) | (li.idle ? DPR_PR_IDLE : 0) |
                         (li.state == KS_STOPPED ? DPR_PR_STOPPED : 0);
    case DPR_ONPRO: return ok ? li.cpu : 0;
    case DPR_PPID: return ok ? (uint64_t)(int64_t)li.ppid : 0;
    case DPR_NLWP: return ok ? (uint64_t)(int64_t)li.nlwp : 0;
    default: return 0;
    }
}

const char *dvm_fault_name(unsigned f)
{
    static const char *const names[DVM_F_COUNT] = {
        "no fault", "invalid address", "invalid alignment", "illegal operation",
        "divide-by-zero", "out of scratch space", "tuple stack overflow",
        "work budget of the firing exhausted", "speculative drop",
        "invalid user access (privilege: a process the consumer may not trace)",
        "invalid kernel access (privilege: kernel variables and frames need KAPP_F_PRIV)",
    };
    return f < DVM_F_COUNT ? names[f] : "unknown fault";
}

/* region: finds the engine region holding [addr, addr+1); returns bytes left in it, 0 if none. */
static uint64_t region(struct dvm_cpu *c, uint64_t addr64)
{
    struct dvm_state *st = c->st;
    uintptr_t addr = (uintptr_t)addr64;
    if ((uint64_t)addr != addr64) /* beyond the address space (32-bit targets) */
        return 0;
    /* native-width arithmetic; the object's strings (probe names, literals) first */
    const struct { const void *base; uintptr_t size; } r[] = {
        { st->obj.strs, st->obj.hdr->dh_strlen },
        { c->scratch, c->scratch_used },
        { st->gvars, st->gvars_size },
        { c->tvars, st->tvars_size },
        { st->dyn.mem, (uintptr_t)st->dyn.chunk * st->dyn.nchunks },
    };
    for (size_t k = 0; k < sizeof(r) / sizeof(r[0]); k++) {
        uintptr_t b = (uintptr_t)r[k].base;
        if (r[k].base && addr >= b && addr - b < r[k].size)
            return r[k].size - (addr - b);
    }
    return 0;
}

const char *dvm_str(struct dvm_cpu *c, uint64_t addr, unsigned *len)
{
    uint64_t room = region(c, addr);
    if (room == 0)
        return NULL;
    const char *s = (const char *)(uintptr_t)addr;
    unsigned max = c->st->strsize - 1u, n = 0;
    if (room < max)
        max = (unsigned)room;
    while (n < max && s[n])
        n++;
    *len = n;
    return s;
}

int dvm_copy_mem(struct dvm_cpu *c, uint8_t *dst, uint64_t addr, unsigned n)
{
    if (region(c, addr) < n) {
        c->fault = DVM_F_BADADDR;
        c->fault_addr = addr;
        return -1;
    }
    memcpy(dst, (const void *)(uintptr_t)addr, n);
    return 0;
}

static uint8_t *scratch(struct dvm_cpu *c, uint32_t n)
{
    n = (n + 7u) & ~7u;
    if (n > c->st->scratch_size - c->scratch_used)
        return NULL;
    uint8_t *p = c->scratch + c->scratch_used;
    c->scratch_used += n;
    return p;
}

int dvm_put_value(struct dvm_cpu *c, uint8_t *dst, uint8_t type, uint64_t v)
{
    if (type == DIF_TYPE_INT) {
        memcpy(dst, &v, 8);
        return 0;
    }
    unsigned n;
    const char *s = dvm_str(c, v, &n);
    unsigned sz = (c->st->strsize + 7u) & ~7u;
    if (!s) {
        c->fault_addr = v;
        return -1;
    }
    if (dst + n <= (const uint8_t *)s || (const uint8_t *)s + n <= dst) {
        for (unsigned k = 0; k < n; k++)
            dst[k] = (uint8_t)s[k];
    } else {
        memmove(dst, s, n); /* a string stored onto itself (x = x) */
    }
    /* zero the tail: bytes to the next word, then words */
    unsigned k = n;
    for (; k < sz && (k & 3u); k++)
        dst[k] = 0;
    d_words_zero(dst + k, sz - k);
    return 0;
}

/* new_str: a scratch string of up to strsize-1 bytes built by the caller; NULL on exhaustion. */
static char *new_str(struct dvm_cpu *c) { return (char *)scratch(c, c->st->strsize); }

/* dyn_key: builds the dynamic-variable key for variable v: [v][tid] for self->, [v][tuple]
 * for arrays. Returns its length, or 0 with c->fault set. */
static unsigned dyn_key(struct dvm_cpu *c, unsigned v)
{
    struct dvm_state *st = c->st;
    const struct dif_var *dv = &st->obj.vars[v];
    uint8_t *k = c->key;
    uint32_t id = v;
    unsigned n = 8;
    memset(k, 0, 8);
    memcpy(k, &id, 4);
    if (dv->dv_scope == DIF_SCOPE_SELF) {
        uint64_t thr = dvm_thread_key(c->ctx);
        memcpy(k + 8, &thr, 8);
        return 16;
    }
    const char *types = dif_str(&st->obj, dv->dv_keys);
    if (strlen(types) != c->ntup) {
        c->fault = DVM_F_ILLOP;
        return 0;
    }
    for (unsigned j = 0; j < c->ntup; j++) {
        uint8_t want = types[j] == 's' ? DIF_TYPE_STR : DIF_TYPE_INT;
        if (c->tuptype[j] != want) {
            c->fault = DVM_F_ILLOP;
            return 0;
        }
        if (dvm_put_value(c, k + n, want, c->tup[j]) != 0) {
            c->fault = DVM_F_BADADDR;
            return 0;
        }
        n += want == DIF_TYPE_STR ? (st->strsize + 7u) & ~7u : 8u;
    }
    c->ntup = 0;
    return n;
}


static int64_t digit_value(char ch);

/* ---- json( ): DTrace's, a selector ("a.b[2].c", "[0]", "0.first") into a JSON text; the
 * value's text as it stands (a string without its quotes, escapes kept; an object or array
 * from its bracket to its match), or none when the text up to it is not valid JSON or it is
 * not there. Iterative, bounded by the text (a firing's kernel stack is small). */

static const char *json_ws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* json_string: p at an opening quote; the position after the closing one, NULL if invalid */
static const char *json_string(const char *p, const char *e)
{
    for (p++; p < e; p++) {
        if (*p == '"')
            return p + 1;
        if ((unsigned char)*p < 0x20)
            return NULL;
        if (*p != '\\')
            continue;
        if (++p >= e)
            return NULL;
        if (*p == 'u') {
            for (int k = 1; k <= 4; k++)
                if (p + k >= e || digit_value(p[k]) > 15)
                    return NULL;
            p += 4;
        } else if (!d_strchr("\"\\/bfnrt", *p)) {
            return NULL;
        }
    }
    return NULL;
}

/* json_scalar: a number, true, false or null at p: its end (a delimiter must follow), or NULL */
static const char *json_scalar(const char *p, const char *e)
{
    const char *q = p;
    static const char *const words[] = { "true", "false", "null" };
    for (unsigned k = 0; k < 3; k++) {
        size_t n = strlen(words[k]);
        if ((size_t)(e - p) >= n && !memcmp(p, words[k], n))
            q = p + n;
    }
    if (q == p) { /* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
        if (q < e && *q == '-')
            q++;
        if (q < e && *q == '0')
            q++;
        else if (q < e && *q >= '1' && *q <= '9')
            while (q < e && *q >= '0' && *q <= '9')
                q++;
        else
            return NULL;
        if (q < e && *q == '.') {
            const char *f = ++q;
            while (q < e && *q >= '0' && *q <= '9')
                q++;
            if (q == f)
                return NULL;
        }
        if (q < e && (*q == 'e' || *q == 'E')) {
            q++;
            if (q < e && (*q == '+' || *q == '-'))
                q++;
            const char *x = q;
            while (q < e && *q >= '0' && *q <= '9')
                q++;
            if (q == x)
                return NULL;
        }
    }
    const char *d = json_ws(q, e);
    return d < e && d_strchr(",]}", *d) ? q : NULL;
}

/* json_value: the end of the value at p, or NULL; nested containers are followed with a
 * depth and a bit per level saying whether it is an object (members: a key, ':', a value) */
static const char *json_value(const char *p, const char *e)
{
    uint64_t objs = 0;
    unsigned depth = 0;
    for (;;) {
        p = json_ws(p, e);
        if (depth && (objs >> (depth - 1) & 1u)) { /* a member's key first */
            if (p >= e || *p != '"' || !(p = json_string(p, e)))
                return NULL;
            p = json_ws(p, e);
            if (p >= e || *p != ':')
                return NULL;
            p = json_ws(p + 1, e);
        }
        if (p >= e)
            return NULL;
        if (*p == '"') {
            if (!(p = json_string(p, e)))
                return NULL;
        } else if (*p == '{' || *p == '[') {
            const char *q = json_ws(p + 1, e);
            if (q < e && *q == (*p == '{' ? '}' : ']')) {
                p = q + 1;      /* empty */
            } else {
                if (depth == 64)
                    return NULL;
                objs = (objs & ~(1ull << depth)) | (uint64_t)(*p == '{') << depth;
                depth++;
                p++;
                continue;       /* its first member or element */
            }
        } else if (!(p = json_scalar(p, e))) {
            return NULL;
        }
        for (;;) { /* after a value: ',' and the next one, or the container's close */
            if (!depth)
                return p;
            p = json_ws(p, e);
            if (p < e && *p == ',') {
                p++;
                break;
            }
            if (p >= e || *p != ((objs >> (depth - 1) & 1u) ? '}' : ']'))
                return NULL;
            depth--;
            p++;
        }
    }
}

/* json_find: the value that selector sel (n bytes) names in text [p, e): its start and end */
static int json_find(const char *p, const char *e, const char *sel, unsigned n,
                     const char **vs, const char **ve)
{
    unsigned i = 0;
    while (i <= n) {
        p = json_ws(p, e);
        if (i == n)
            break;
        /* the next element: [N], or a name up to '.', '[' or the end */
        const char *name = sel + i;
        unsigned len = 0, index = 0, isindex = 0;
        if (sel[i] == '[') {
            for (i++; i < n && sel[i] >= '0' && sel[i] <= '9'; i++, len++)
                index = index < 100000 ? index * 10 + (unsigned)(sel[i] - '0') : index;
            if (!len || i >= n || sel[i] != ']')
                return -1;
            i++;
            isindex = 1;
        } else {
            while (i < n && sel[i] != '.' && sel[i] != '[')
                i++, len++;
            if (!len)
                return -1;
            isindex = 1;
            for (unsigned k = 0; k < len && isindex; k++) {
                isindex = name[k] >= '0' && name[k] <= '9';
                index = index < 100000 ? index * 10 + (unsigned)(name[k] - '0') : index;
            }
        }
        if (i < n && sel[i] == '.')
            i++;
        if (p >= e || (*p != '{' && *p != '['))
            return -1;
        int obj = *p == '{';
        if (!obj && !isindex)
            return -1;
        p = json_ws(p + 1, e);
        for (unsigned k = 0;; k++) {
            if (p < e && (*p == '}' || *p == ']'))
                return -1;      /* the end: not there */
            int hit = !obj && k == index;
            if (obj) {
                if (p >= e || *p != '"')
                    return -1;
                const char *ke = json_string(p, e);
                if (!ke)
                    return -1;
                hit = (unsigned)(ke - p - 2) == len && !memcmp(p + 1, name, len);
                p = json_ws(ke, e);
                if (p >= e || *p != ':')
                    return -1;
                p = json_ws(p + 1, e);
            }
            if (hit)
                break;
            if (!(p = json_value(p, e)))
                return -1;
            p = json_ws(p, e);
            if (p >= e || *p != ',')
                return -1;
            p = json_ws(p + 1, e);
        }
    }
    if (p >= e)
        return -1;
    *vs = p;
    if (*p == '"') {
        if (!(*ve = json_string(p, e)))
            return -1;
        *vs = p + 1;
        (*ve)--;
        return 0;
    }
    *ve = *p == '{' || *p == '[' ? json_value(p, e) : json_scalar(p, e);
    return *ve ? 0 : -1;
}

/* digit_value: a character's value as a digit of bases up to 36; 99 for anything else */
static int64_t digit_value(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z')
        return (ch | 0x20) - 'a' + 10;
    return 99;
}

static int writable(struct dvm_cpu *c, uint64_t addr, uint32_t sz);

/* The arguments of a subroutine call, as subr_take checked them against its signature: each
 * string's text and length, each integer's value. */
struct subr_args {
    const char *s[3];
    unsigned len[3];
    int64_t iv[3];
};

/* subr_take: the tuple pushed for subroutine id, checked against its signature (s: a string,
 * S: a string or NULL, i: an integer) and taken off it. 0, or -1 with a fault set. */
static int subr_take(struct dvm_cpu *c, unsigned id, struct subr_args *a)
{
    static const char *const sig[DIF_S_COUNT] = {
        [DIF_S_STRLEN] = "s", [DIF_S_STRJOIN] = "ss", [DIF_S_SUBSTR2] = "si",
        [DIF_S_SUBSTR3] = "sii", [DIF_S_INDEX] = "ss", [DIF_S_RINDEX] = "ss",
        [DIF_S_STRCHR] = "si", [DIF_S_STRSTR] = "ss", [DIF_S_LLTOSTR] = "i",
        [DIF_S_STRTOLL] = "s", [DIF_S_TOUPPER] = "s", [DIF_S_TOLOWER] = "s",
        [DIF_S_SPECULATION] = "", [DIF_S_BASENAME] = "s", [DIF_S_DIRNAME] = "s",
        [DIF_S_CLEANPATH] = "s", [DIF_S_STRRCHR] = "si", [DIF_S_RAND] = "",
        [DIF_S_HTONS] = "i", [DIF_S_HTONL] = "i", [DIF_S_HTONLL] = "i",
        [DIF_S_LLTOSTR2] = "ii", [DIF_S_STRTOK] = "Ss", /* S: a string or NULL */
        [DIF_S_COPYIN] = "ii", [DIF_S_COPYINSTR] = "i", [DIF_S_COPYINSTR2] = "ii",
        [DIF_S_STRTOLL2] = "si", [DIF_S_ALLOCA] = "i", [DIF_S_SPECROOM] = "i",
        [DIF_S_STACK] = "ii", [DIF_S_STACKDEPTH] = "i", [DIF_S_COPYS] = "is",
        [DIF_S_INDEX3] = "ssi", [DIF_S_RINDEX3] = "ssi", [DIF_S_PRINFO] = "ii",
        [DIF_S_PRSTR] = "ii", [DIF_S_CALLER] = "i", [DIF_S_JSON] = "ss",
        [DIF_S_KVAR] = "ii", [DIF_S_PROGENYOF] = "i", [DIF_S_UNAME] = "i",
        [DIF_S_DEVINFO] = "ii", [DIF_S_DEVNAME] = "i",
    };
    unsigned n = (unsigned)strlen(sig[id]);
    if (c->ntup != n) {
        c->fault = DVM_F_ILLOP;
        return -1;
    }
    for (unsigned j = 0; j < n; j++) {
        int str = c->tuptype[j] == DIF_TYPE_STR;
        if (sig[id][j] != 'S' && (sig[id][j] == 's') != str) {
            c->fault = DVM_F_ILLOP;
            return -1;
        }
        if (str) {
            a->s[j] = dvm_str(c, c->tup[j], &a->len[j]);
            if (!a->s[j]) {
                c->fault = DVM_F_BADADDR;
                c->fault_addr = c->tup[j];
                return -1;
            }
        } else {
            a->iv[j] = (int64_t)c->tup[j];
        }
    }
    c->ntup = 0;
    return 0;
}

/* subr_charge: the bytes this call may touch, taken from the clause's budget: a search
 * compares up to the needle at every position. 0, or -1 with DVM_F_BUDGET set. */
static int subr_charge(struct dvm_cpu *c, unsigned id, const struct subr_args *a)
{
    int64_t work = (int64_t)a->len[0] + a->len[1] + a->len[2];
    if (id == DIF_S_INDEX || id == DIF_S_RINDEX || id == DIF_S_STRSTR || id == DIF_S_INDEX3 ||
        id == DIF_S_RINDEX3)
        work = (int64_t)a->len[0] * ((int64_t)a->len[1] + 1);
    if (id == DIF_S_COPYIN)
        work = a->iv[1] < 0 || a->iv[1] > INT32_MAX ? INT32_MAX : a->iv[1];
    if (id == DIF_S_ALLOCA) /* more than scratch holds is "out of scratch", not work */
        work = a->iv[0] < 0 || a->iv[0] > (int64_t)c->st->scratch_size ? 0 : a->iv[0];
    if (id == DIF_S_COPYINSTR || id == DIF_S_COPYINSTR2 || id == DIF_S_COPYS)
        work = c->st->strsize;
    if (work > c->budget) {
        c->budget = -1;
        c->fault = DVM_F_BUDGET;
        return -1;
    }
    c->budget -= (int32_t)work;
    return 0;
}

/* ---- subroutines that return a value -------------------------------------------------------- */

/* index(s, t) and rindex(s, t): the first or last position of t in s, or -1 */
static uint64_t sub_index(unsigned id, const struct subr_args *a)
{
    int64_t found = -1;
    for (unsigned k = 0; a->len[1] <= a->len[0] && k + a->len[1] <= a->len[0]; k++)
        if (memcmp(a->s[0] + k, a->s[1], a->len[1]) == 0) {
            found = k;
            if (id == DIF_S_INDEX)
                break;
        }
    return (uint64_t)found;
}

/* index(s, t, start) and rindex(s, t, start), as DTrace's: index from start on (a negative
 * start is 0; at or past the end only "" is found, there), rindex from start back (a negative
 * start finds only "", at 0; past the end is the end); "" in "" is at 0 */
static uint64_t sub_index3(unsigned id, const struct subr_args *a)
{
    const char *s = a->s[0], *t = a->s[1];
    int64_t pos = a->iv[2], l0 = a->len[0], l1 = a->len[1];
    if (!l0 && !l1)
        return 0;
    if (id == DIF_S_INDEX3) {
        pos = pos < 0 ? 0 : pos;
        if (pos >= l0)
            return l1 ? (uint64_t)-1 : (uint64_t)l0;
        for (int64_t k = pos; k + l1 <= l0; k++)
            if (memcmp(s + k, t, (size_t)l1) == 0)
                return (uint64_t)k;
        return (uint64_t)-1;
    }
    if (pos < 0)
        return l1 ? (uint64_t)-1 : 0;
    for (int64_t k = pos > l0 ? l0 : pos; k >= 0; k--)
        if (k + l1 <= l0 && memcmp(s + k, t, (size_t)l1) == 0)
            return (uint64_t)k;
    return (uint64_t)-1;
}

/* strtoll(s) and strtoll(s, base), as DTrace's dtrace_strtoll: blanks, a sign, 0x in base
 * 16, then the digits (0-9, then a-z or A-Z) below the base, wrapping at 64 bits; a base
 * outside 2..36 is an illegal operation */
static uint64_t sub_strtoll(struct dvm_cpu *c, unsigned id, const struct subr_args *a)
{
    const char *s = a->s[0];
    unsigned k = 0, len = a->len[0];
    int64_t base = id == DIF_S_STRTOLL2 ? a->iv[1] : 10;
    uint64_t v = 0;
    int neg = 0;
    if (base < 2 || base > 36) {
        c->fault = DVM_F_ILLOP;
        return 0;
    }
    while (k < len && (s[k] == ' ' || s[k] == '\t'))
        k++;
    if (k < len && (s[k] == '-' || s[k] == '+'))
        neg = s[k++] == '-';
    if (base == 16 && k + 2 < len && s[k] == '0' && (s[k + 1] | 0x20) == 'x' &&
        digit_value(s[k + 2]) < 16)
        k += 2;
    for (; k < len && digit_value(s[k]) < base; k++)
        v = v * (uint64_t)base + (uint64_t)digit_value(s[k]);
    return neg ? 0 - v : v;
}

/* strchr(s, c), strrchr(s, c) and strstr(s, t): where in s; not found: "" (this subset has
 * no NULL strings) */
static uint64_t sub_strfind(struct dvm_cpu *c, unsigned id, const struct subr_args *a)
{
    const char *s = a->s[0];
    unsigned len = a->len[0];
    if (id == DIF_S_STRCHR) {
        for (unsigned k = 0; k < len; k++)
            if (s[k] == (char)a->iv[1])
                return (uint64_t)(uintptr_t)(s + k);
    } else if (id == DIF_S_STRRCHR) {
        for (unsigned k = len; k-- > 0;)
            if (s[k] == (char)a->iv[1])
                return (uint64_t)(uintptr_t)(s + k);
    } else {
        for (unsigned k = 0; a->len[1] <= len && k + a->len[1] <= len; k++)
            if (memcmp(s + k, a->s[1], a->len[1]) == 0)
                return (uint64_t)(uintptr_t)(s + k);
    }
    return (uint64_t)(uintptr_t)c->st->obj.strs;
}

/* `name: a kernel variable's bytes (iv[1] of them), little-endian as every target is */
static uint64_t sub_kvar(struct dvm_cpu *c, const struct subr_args *a)
{
    uint64_t v = 0;
    int64_t size = a->iv[1];
    int r = size == 1 || size == 2 || size == 4 || size == 8
            ? (dvm_kread ? dvm_kread(&v, (uint64_t)a->iv[0], (unsigned)size) : -1) : -1;
    if (r != 0) {
        c->fault = r == DVM_UREAD_PRIV ? DVM_F_KPRIV : DVM_F_BADADDR;
        c->fault_addr = (uint64_t)a->iv[0];
        return 0;
    }
    return v;
}

/* ((struct dev_info *)line)->member (d/ddevinfo.h): the host's answer; a value that is no
 * interrupt line is an invalid address, as a bad dev_info pointer is on Solaris */
static uint64_t sub_devinfo(struct dvm_cpu *c, const struct subr_args *a)
{
    int64_t v = 0;
    if (a->iv[0] < 0 || dvm_devinfo((unsigned)a->iv[0], (uint64_t)a->iv[1], &v) != 0) {
        c->fault = DVM_F_BADADDR;
        c->fault_addr = (uint64_t)a->iv[1];
        return 0;
    }
    return (uint64_t)v;
}

/* caller (iv[0] 0) and ucaller (1): a timer's interrupted pc, else the frame above */
static uint64_t sub_caller(struct dvm_cpu *c, const struct subr_args *a)
{
    uint64_t pcs[1] = { 0 };
    int user = a->iv[0] != 0;
    if (!user && kernel_refused(c))
        return 0;
    if (c->st->obj.probes[c->probe].dp_flags) /* a timer's: the interrupted pc */
        return c->args ? c->args[user ? 1 : 0] : 0;
    if (user && user_refused(c))
        return 0;
    return dvm_stack && dvm_stack(user ? DVM_STACK_USER : DVM_STACK_KERNEL, pcs, 1) ? pcs[0]
                                                                                   : 0;
}

/* htons, htonl, htonll: the value's bytes reversed */
static uint64_t sub_swap(unsigned id, uint64_t v)
{
    if (id == DIF_S_HTONS)
        return kev_swap16((uint16_t)v);
    if (id == DIF_S_HTONL)
        return kev_swap32((uint32_t)v);
    return kev_swap64(v);
}

/* a string member's store (iv[0]: where): strsize bytes, checked as DIF_ST*'s */
static uint64_t sub_copys(struct dvm_cpu *c, const struct subr_args *a)
{
    if (!writable(c, (uint64_t)a->iv[0], c->st->strsize)) {
        c->fault = DVM_F_BADADDR;
        c->fault_addr = (uint64_t)a->iv[0];
        return 0;
    }
    uint8_t *p = (uint8_t *)(uintptr_t)a->iv[0];
    memmove(p, a->s[1], a->len[1]); /* may overlap: x.s = x.s */
    memset(p + a->len[1], 0, c->st->strsize - a->len[1]);
    return (uint64_t)a->iv[0];
}

/* alloca(n): zeroed scratch for the rest of the clause; too big: a fault */
static uint64_t sub_alloca(struct dvm_cpu *c, int64_t n)
{
    uint8_t *p = n >= 0 && n <= (int64_t)c->st->scratch_size ? scratch(c, (uint32_t)n) : NULL;
    if (!p) {
        c->fault = DVM_F_NOSCRATCH;
        return 0;
    }
    memset(p, 0, (size_t)n);
    return (uint64_t)(uintptr_t)p;
}

/* copyin(addr, n): a copy in scratch; a size scratch cannot hold is a fault */
static uint64_t sub_copyin(struct dvm_cpu *c, const struct subr_args *a)
{
    uint8_t *p = a->iv[1] > 0 ? scratch(c, (uint32_t)a->iv[1]) : NULL;
    if (!p) {
        c->fault = DVM_F_NOSCRATCH;
        return 0;
    }
    int r = dvm_uread ? dvm_uread(p, (uint64_t)a->iv[0], (unsigned)a->iv[1]) : -1;
    if (r != 0) {
        c->fault = r == DVM_UREAD_PRIV ? DVM_F_UPRIV : DVM_F_BADADDR;
        c->fault_addr = (uint64_t)a->iv[0];
        return 0;
    }
    return (uint64_t)(uintptr_t)p;
}

/* ---- subroutines that build a new string ----------------------------------------------------
 * Each writes its string into d (up to max characters, not NUL-terminated) and returns its
 * length, or -1: a fault set, or (strtok at its end) the NULL string. */

/* copyinstr(addr) and copyinstr(addr, max): up to the NUL, max or strsize - 1 */
static long str_copyin(struct dvm_cpu *c, unsigned id, const struct subr_args *a, char *d,
                       unsigned max)
{
    uint64_t lim = id == DIF_S_COPYINSTR2 && a->iv[1] >= 0 && (uint64_t)a->iv[1] < max
                   ? (uint64_t)a->iv[1] : max;
    unsigned n = 0;
    for (; n < lim; n++) {
        int r = dvm_uread ? dvm_uread(d + n, (uint64_t)a->iv[0] + n, 1) : -1;
        if (r != 0) {
            c->fault = r == DVM_UREAD_PRIV ? DVM_F_UPRIV : DVM_F_BADADDR;
            c->fault_addr = (uint64_t)a->iv[0] + n;
            return -1;
        }
        if (!d[n])
            break;
    }
    return n;
}

/* str_put: v's characters (NULL: none), up to max */
static long str_put(const char *v, char *d, unsigned max)
{
    unsigned n = 0;
    while (v && v[n] && n < max) {
        d[n] = v[n];
        n++;
    }
    return n;
}

/* a process's string member (d/dprinfo.h): its scheduling class or its program's name */
static long str_prstr(const struct subr_args *a, char *d, unsigned max)
{
    struct dvm_lwpinfo li = { 0 };
    const char *v = "";
    if (a->iv[0] == DPRS_CLNAME)
        v = (uint64_t)a->iv[1] >> 16 == 0 ? "SYS" : "RT";
    else if ((uint64_t)a->iv[1] <= UINT32_MAX && dvm_lwpinfo((uint32_t)a->iv[1], &li) == 0 &&
             li.fname)
        v = li.fname;
    return str_put(v, d, max);
}

/* `devnamesp[major].dn_name (d/ddevinfo.h): a driver no line's device has is an invalid
 * address, as an index past Solaris's devnamesp[] is */
static long str_devname(struct dvm_cpu *c, const struct subr_args *a, char *d, unsigned max)
{
    const char *v = dvm_devname((uint64_t)a->iv[0]);
    if (!v) {
        c->fault = DVM_F_BADADDR;
        c->fault_addr = (uint64_t)a->iv[0];
        return -1;
    }
    return str_put(v, d, max);
}

/* strjoin(s, t) */
static long str_join(const struct subr_args *a, char *d, unsigned max)
{
    unsigned n = a->len[0] < max ? a->len[0] : max;
    memmove(d, a->s[0], n);
    for (unsigned k = 0; k < a->len[1] && n < max; k++)
        d[n++] = a->s[1][k];
    return n;
}

/* substr(s, start) and substr(s, start, count), negative start and count as DTrace's */
static long str_substr(unsigned id, const struct subr_args *a, char *d, unsigned max)
{
    int64_t len = a->len[0], start = a->iv[1], cnt = id == DIF_S_SUBSTR3 ? a->iv[2] : len;
    unsigned n = 0;
    if (start < 0)
        start += len;
    if (start < 0) {
        if (id == DIF_S_SUBSTR3)
            cnt += start;
        start = 0;
    }
    if (cnt < 0)
        cnt = len - start + cnt;
    for (int64_t k = start; k < len && k - start < cnt && n < max; k++)
        d[n++] = a->s[0][k];
    return n;
}

/* lltostr(v) and lltostr(v, base), as DTrace's: bases 2..36 (else a fault); other than 10
 * the value is unsigned; 16 has "0x" before it, 8 a "0"; zero is "0" (and "0x0" in 16) */
static long str_lltostr(struct dvm_cpu *c, unsigned id, const struct subr_args *a, char *d,
                        unsigned max)
{
    int64_t b = id == DIF_S_LLTOSTR2 ? a->iv[1] : 10, x = a->iv[0];
    if (b <= 1 || b > 36) {
        c->fault = DVM_F_ILLOP;
        return -1;
    }
    char tmp[72];
    unsigned e = sizeof(tmp), n = 0;
    uint64_t v = b == 10 && x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
    for (; v; v /= (uint64_t)b) {
        unsigned dg = (unsigned)(v % (uint64_t)b);
        tmp[--e] = (char)(dg < 10 ? '0' + dg : 'a' + dg - 10);
    }
    if (x == 0 && b == 16)
        tmp[--e] = '0';
    if (b == 16)
        tmp[--e] = 'x';
    if (x == 0 || b == 8 || b == 16)
        tmp[--e] = '0';
    if (x < 0 && b == 10)
        tmp[--e] = '-';
    for (; e < sizeof(tmp) && n < max; e++)
        d[n++] = tmp[e];
    return n;
}

/* strtok(s, delims), as DTrace's: skip the delimiters, copy up to the next one; strtok(NULL,
 * delims) goes on from there (the string is kept per CPU); at the end the result is NULL */
static long str_tok(struct dvm_cpu *c, const struct subr_args *a, char *d, unsigned max)
{
    uint8_t map[32] = { 0 };
    for (unsigned k = 0; k < a->len[1]; k++)
        map[(uint8_t)a->s[1][k] >> 3] |= (uint8_t)(1u << ((uint8_t)a->s[1][k] & 7u));
    char *b = c->strtok;
    if (a->s[0]) {
        memcpy(b, a->s[0], a->len[0]);
        c->strtok_off = 0;
        c->strtok_len = a->len[0];
    }
    uint32_t p = c->strtok_off, l = c->strtok_len;
    unsigned n = 0;
#define DELIM(ch) (map[(uint8_t)(ch) >> 3] & (1u << ((uint8_t)(ch) & 7u)))
    while (p < l && DELIM(b[p]))
        p++;
    if (p >= l) {
        c->strtok_off = c->strtok_len = 0;
        return -1;
    }
    while (p < l && !DELIM(b[p]) && n < max)
        d[n++] = b[p++];
#undef DELIM
    c->strtok_off = p;
    return n;
}

/* basename(s) and dirname(s), as DTrace's: "" is ".", all slashes is "/", trailing slashes
 * ignored */
static long str_path(unsigned id, const struct subr_args *a, char *d, unsigned max)
{
    const char *s = a->s[0];
    int last = (int)a->len[0] - 1;
    unsigned n = 0;
    while (last >= 0 && s[last] == '/')
        last--;
    if (a->len[0] == 0)
        return str_put(".", d, max);
    if (last < 0)
        return str_put("/", d, max);
    int first = last, from = 0, to = -1;
    while (first > 0 && s[first - 1] != '/')
        first--;
    if (id == DIF_S_BASENAME) {
        from = first;
        to = last;
    } else {
        to = first - 1;
        while (to >= 0 && s[to] == '/')
            to--;
        if (first == 0)
            d[n++] = '.';
        else if (to < 0)
            d[n++] = '/';
    }
    for (int k = from; k <= to && n < max; k++)
        d[n++] = s[k];
    return n;
}

/* cleanpath(s): drops "//", "/./" and "dir/../" as DTrace does, textually (a final "/."
 * stays) */
static long str_cleanpath(const struct subr_args *a, char *d, unsigned max)
{
    const char *s = a->s[0];
    unsigned len = a->len[0], n = 0;
    for (unsigned k = 0; k < len && n < max;) {
        const char *q = s + k;
        if (q[0] == '/' && k + 1 < len && q[1] == '/') {
            k++;
        } else if (q[0] == '/' && k + 2 < len && q[1] == '.' && q[2] == '/') {
            k += 2;
        } else if (q[0] == '/' && k + 3 < len && q[1] == '.' && q[2] == '.' && q[3] == '/') {
            while (n > 0 && d[n - 1] != '/')
                n--;
            if (n > 0)
                n--;
            k += 3;
        } else {
            d[n++] = s[k++];
        }
    }
    return n;
}

/* toupper(s) and tolower(s) */
static long str_case(unsigned id, const struct subr_args *a, char *d)
{
    for (unsigned k = 0; k < a->len[0]; k++) {
        char ch = a->s[0][k];
        if (id == DIF_S_TOUPPER && ch >= 'a' && ch <= 'z')
            ch = (char)(ch - 32);
        if (id == DIF_S_TOLOWER && ch >= 'A' && ch <= 'Z')
            ch = (char)(ch + 32);
        d[k] = ch;
    }
    return a->len[0];
}

/* subr_string: the subroutines that build a new string, in scratch */
static uint64_t subr_string(struct dvm_cpu *c, unsigned id, const struct subr_args *a)
{
    char *d = new_str(c);
    if (!d) {
        c->fault = DVM_F_NOSCRATCH;
        return 0;
    }
    unsigned max = c->st->strsize - 1u;
    const char *vs, *ve;
    long n;
    switch (id) {
    case DIF_S_COPYINSTR: case DIF_S_COPYINSTR2: n = str_copyin(c, id, a, d, max); break;
    case DIF_S_PRSTR: n = str_prstr(a, d, max); break;
    case DIF_S_DEVNAME: n = str_devname(c, a, d, max); break;
    case DIF_S_UNAME: /* d/duname.h */
        n = str_put(a->iv[0] >= 0 && a->iv[0] < DUN_COUNT ? dvm_uname((unsigned)a->iv[0]) : "",
                    d, max);
        break;
    case DIF_S_JSON:
        n = 0;
        if (json_find(a->s[0], a->s[0] + a->len[0], a->s[1], a->len[1], &vs, &ve) == 0)
            for (; vs < ve && n < (long)max; vs++)
                d[n++] = *vs;
        break;
    case DIF_S_STRJOIN: n = str_join(a, d, max); break;
    case DIF_S_SUBSTR2: case DIF_S_SUBSTR3: n = str_substr(id, a, d, max); break;
    case DIF_S_LLTOSTR: case DIF_S_LLTOSTR2: n = str_lltostr(c, id, a, d, max); break;
    case DIF_S_STRTOK: n = str_tok(c, a, d, max); break;
    case DIF_S_BASENAME: case DIF_S_DIRNAME: n = str_path(id, a, d, max); break;
    case DIF_S_CLEANPATH: n = str_cleanpath(a, d, max); break;
    case DIF_S_TOUPPER: case DIF_S_TOLOWER: n = str_case(id, a, d); break;
    default:
        c->fault = DVM_F_ILLOP;
        return 0;
    }
    if (n < 0)
        return 0;
    d[n] = 0;
    return (uint64_t)(uintptr_t)d;
}

/* subr: subroutine id (DIF_CALL) over the tuple pushed for it: its value, or 0 with a fault
 * set. A dispatch: each subroutine, or group of alike ones, is a function above. */
__attribute__((noinline)) static uint64_t subr(struct dvm_cpu *c, unsigned id)
{
    struct subr_args a = { { 0 }, { 0 }, { 0 } };
    if (subr_take(c, id, &a) != 0 || subr_charge(c, id, &a) != 0)
        return 0;
    switch (id) {
    case DIF_S_STRLEN: return a.len[0];
    case DIF_S_INDEX: case DIF_S_RINDEX: return sub_index(id, &a);
    case DIF_S_INDEX3: case DIF_S_RINDEX3: return sub_index3(id, &a);
    case DIF_S_PRINFO: return prinfo(a.iv[0], (uint64_t)a.iv[1]);
    case DIF_S_PROGENYOF: return progenyof(c->ctx->pid, a.iv[0]);
    case DIF_S_STRTOLL: case DIF_S_STRTOLL2: return sub_strtoll(c, id, &a);
    case DIF_S_STRCHR: case DIF_S_STRRCHR: case DIF_S_STRSTR: return sub_strfind(c, id, &a);
    case DIF_S_SPECULATION: return dvm_spec_alloc(c->st, c->ctx->cpu);
    case DIF_S_STACK: /* trace/d/stacks.c: bounded by DVM_STACK_MAXDEPTH frames */
        if ((a.iv[0] & 1) ? user_refused(c) : kernel_refused(c))
            return 0;
        return dvm_stack_value(c->st, (unsigned)a.iv[0] & 1u,
                               a.iv[1] > 0 && a.iv[1] < DVM_STACK_MAXDEPTH ? (unsigned)a.iv[1]
                                                                           : DVM_STACK_MAXDEPTH);
    case DIF_S_KVAR: return sub_kvar(c, &a);
    case DIF_S_DEVINFO: return sub_devinfo(c, &a);
    case DIF_S_CALLER: return sub_caller(c, &a);
    case DIF_S_STACKDEPTH:
        if ((a.iv[0] & 1) && user_refused(c))
            return 0;
        return dvm_stack_depth((unsigned)a.iv[0] & 1u);
    case DIF_S_SPECROOM: /* speculate( )'s id: no room stops the clause, uncounted as error */
        if (!dvm_spec_room(c->st, c, (uint64_t)a.iv[0]))
            c->fault = DVM_F_SPECDROP;
        return (uint64_t)a.iv[0];
    case DIF_S_RAND: /* DTrace's own cheap generator over the time */
        return (uint64_t)(int32_t)((c->ctx->timestamp * 2416u + 374441u) % 1771875u);
    case DIF_S_HTONS: case DIF_S_HTONL: case DIF_S_HTONLL: return sub_swap(id, (uint64_t)a.iv[0]);
    case DIF_S_COPYS: return sub_copys(c, &a);
    case DIF_S_ALLOCA: return sub_alloca(c, a.iv[0]);
    case DIF_S_COPYIN: return sub_copyin(c, &a);
    default: return subr_string(c, id, &a);
    }
}

__attribute__((noinline)) static uint64_t builtin_str(struct dvm_cpu *c, unsigned id)
{
    const struct dvm_ctx *x = c->ctx;
    const struct dif_obj *o = &c->st->obj;
    const struct dif_probe *p = &o->probes[c->probe];
    switch (id) {
    case DIF_B_PROBEPROV: return (uint64_t)(uintptr_t)dif_str(o, p->dp_prov);
    case DIF_B_PROBEMOD: return (uint64_t)(uintptr_t)dif_str(o, p->dp_mod);
    case DIF_B_PROBEFUNC: return (uint64_t)(uintptr_t)dif_str(o, p->dp_func);
    case DIF_B_PROBENAME: return (uint64_t)(uintptr_t)dif_str(o, p->dp_name);
    case DIF_B_EXECNAME: {
        const char *e = x->execname ? x->execname : "";
        char *d = new_str(c);
        unsigned n = 0;
        if (!d) {
            c->fault = DVM_F_NOSCRATCH;
            return 0;
        }
        while (e[n] && n + 1 < c->st->strsize)
            d[n] = e[n], n++;
        d[n] = 0;
        return (uint64_t)(uintptr_t)d;
    }
    default:
        c->fault = DVM_F_ILLOP;
        return 0;
    }
}

uint64_t dvm_builtin(struct dvm_cpu *c, unsigned id)
{
    const struct dvm_ctx *x = c->ctx;
    switch (id) {
    case DIF_B_ARG0: case DIF_B_ARG0 + 1: case DIF_B_ARG0 + 2: case DIF_B_ARG0 + 3:
    case DIF_B_ARG0 + 4: case DIF_B_ARG0 + 5: case DIF_B_ARG0 + 6: case DIF_B_ARG0 + 7:
    case DIF_B_ARG0 + 8: case DIF_B_ARG0 + 9:
        return c->args[id - DIF_B_ARG0];
    case DIF_B_TIMESTAMP: return x->timestamp;
    case DIF_B_VTIMESTAMP: return x->vtimestamp;
    case DIF_B_WALLTIMESTAMP: return x->walltimestamp;
    case DIF_B_PID: return (uint64_t)(int64_t)x->pid;
    case DIF_B_TID: return (uint64_t)(int64_t)x->tid;
    case DIF_B_PPID: return (uint64_t)(int64_t)x->ppid;
    case DIF_B_CPU: return x->cpu;
    case DIF_B_ERRNO: return (uint64_t)(int64_t)x->errno_;
    case DIF_B_PRIO: return (uint64_t)(int64_t)x->prio;
    case DIF_B_NLWP: return (uint64_t)(int64_t)x->nlwp;
    case DIF_B_NRUNNABLE: return dvm_nrunnable ? (uint64_t)(int64_t)dvm_nrunnable(x->cpu) : 0;
    case DIF_B_CONSUMER: return (uint64_t)(int64_t)c->st->consumer_pid;
    case DIF_B_EPID: return c->epid;
    case DIF_B_ID: return c->st->obj.probes[c->probe].dp_id;
    default: return builtin_str(c, id);
    }
}

__attribute__((noinline)) static uint64_t load(struct dvm_cpu *c, unsigned op, uint64_t addr)
{
    static const uint8_t size[] = { 1, 2, 4, 1, 2, 4, 8 };
    unsigned sz = size[op - DIF_LDSB];
    if ((addr & (sz - 1u)) != 0) {
        c->fault = DVM_F_BADALIGN;
        c->fault_addr = addr;
        return 0;
    }
    if (region(c, addr) < sz) {
        c->fault = DVM_F_BADADDR;
        c->fault_addr = addr;
        return 0;
    }
    const uint8_t *p = (const uint8_t *)(uintptr_t)addr;
    switch (op) {
    case DIF_LDSB: { int8_t v; memcpy(&v, p, 1); return (uint64_t)(int64_t)v; }
    case DIF_LDSH: { int16_t v; memcpy(&v, p, 2); return (uint64_t)(int64_t)v; }
    case DIF_LDSW: { int32_t v; memcpy(&v, p, 4); return (uint64_t)(int64_t)v; }
    case DIF_LDUB: { uint8_t v; memcpy(&v, p, 1); return v; }
    case DIF_LDUH: { uint16_t v; memcpy(&v, p, 2); return v; }
    case DIF_LDUW: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* writable: 1 if the sz bytes at addr are memory a D program may write (see store). */
static int writable(struct dvm_cpu *c, uint64_t addr, uint32_t sz)
{
    struct dvm_state *st = c->st;
    uintptr_t a = (uintptr_t)addr, g = (uintptr_t)st->gvars, t = (uintptr_t)c->tvars;
    uintptr_t s = (uintptr_t)c->scratch;
    return (uint64_t)a == addr &&
           ((st->gvars && a >= g && a - g < st->gvars_size && st->gvars_size - (a - g) >= sz) ||
            (c->tvars && a >= t && a - t < st->tvars_size && st->tvars_size - (a - t) >= sz) ||
            (c->scratch && a >= s && a - s < c->scratch_used && c->scratch_used - (a - s) >= sz) ||
            dvm_dyn_memval(st, a, sz));
}

/* store: *(addr) = v for DIF_ST*: aligned, and wholly inside the globals, this CPU's
 * clause-locals, the part of its scratch the firing has taken (alloca( ), copyin( ) and
 * string results) or the value of a struct-valued array's element (dvm_dyn_memval): the
 * only memory D programs may write; else a fault. */
__attribute__((noinline)) static void store(struct dvm_cpu *c, unsigned op, uint64_t addr,
                                            uint64_t v)
{
    unsigned sz = 1u << (op - DIF_STB);
    if ((addr & (sz - 1u)) != 0) {
        c->fault = DVM_F_BADALIGN;
        c->fault_addr = addr;
        return;
    }
    if (!writable(c, addr, sz)) {
        c->fault = DVM_F_BADADDR;
        c->fault_addr = addr;
        return;
    }
    memcpy((void *)(uintptr_t)addr, &v, sz); /* little-endian: the low bytes */
}

/* self_lookup: the value of self->v for this thread, through the per-CPU cache of the last
 * one found (see struct dvm_cpu); creates it if `create`. NULL if absent or no space. */
static uint8_t *self_lookup(struct dvm_cpu *c, unsigned v, int create)
{
    struct dvm_state *st = c->st;
    /* the generation before the lookup: a free on another CPU after it invalidates the cache
     * even if it came before the lookup returned. Relaxed: a free counts itself before its
     * chunk can wait for this firing (engine.c dvm_dyn_free, dyn_reclaim's barriers), so a
     * firing that started after a chunk's wait began sees its free here */
    uint32_t gen = __atomic_load_n(&st->dyn.gen, __ATOMIC_RELAXED);
    if (c->self_var == v + 1u && c->self_thr == dvm_thread_key(c->ctx) && c->self_gen == gen)
        return c->self_val;
    unsigned n = dyn_key(c, v);
    uint8_t *p = n ? dvm_dyn_lookup(st, c->ctx->cpu, c->key, n, create) : NULL;
    if (p) {
        c->self_val = p;
        c->self_var = v + 1u;
        c->self_thr = dvm_thread_key(c->ctx);
        c->self_gen = gen;
    }
    return p;
}

/* var_load / var_store: the variable instructions. */
__attribute__((noinline)) static uint64_t var_load(struct dvm_cpu *c, unsigned op,
                                                    unsigned v)
{
    struct dvm_state *st = c->st;
    const struct dif_var *dv = &st->obj.vars[v];
    uint8_t *p;
    if (op == DIF_LDGV || op == DIF_LDTV) {
        p = (op == DIF_LDGV ? st->gvars : c->tvars) + st->var_off[v];
    } else if (op == DIF_LDSV) {
        p = self_lookup(c, v, 0);
        if (!p)
            return dv->dv_type == DIF_TYPE_STR ? (uint64_t)(uintptr_t)c->st->obj.strs : 0;
    } else {
        unsigned n = dyn_key(c, v);
        if (!n)
            return 0;
        /* a struct value is by reference, read or written through: a missing element is
         * created zeroed (as libdtrace's code faults one in); no space: a drop, and 0,
         * whose members are an invalid address */
        int mem = dv->dv_type == DIF_TYPE_MEM;
        p = dvm_dyn_lookup(st, c->ctx->cpu, c->key, n, mem);
        if (!p && mem)
            st->stats[c->ctx->cpu].dynvardrops++;
        if (!p)
            return dv->dv_type == DIF_TYPE_STR ? (uint64_t)(uintptr_t)c->st->obj.strs : 0;
    }
    if (dv->dv_type != DIF_TYPE_INT) /* strings and memory variables: by reference */
        return (uint64_t)(uintptr_t)p;
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}

__attribute__((noinline)) static void var_store(struct dvm_cpu *c, unsigned op, unsigned v,
                                                uint64_t val)
{
    struct dvm_state *st = c->st;
    const struct dif_var *dv = &st->obj.vars[v];
    uint8_t *p;
    if (op == DIF_STGV || op == DIF_STTV) {
        p = (op == DIF_STGV ? st->gvars : c->tvars) + st->var_off[v];
    } else if (op == DIF_STSV && !(dv->dv_type == DIF_TYPE_INT && val == 0)) {
        p = self_lookup(c, v, 1);
        if (!p) {
            st->stats[c->ctx->cpu].dynvardrops++;
            return;
        }
    } else {
        unsigned n = dyn_key(c, v);
        if (!n)
            return;
        if (dv->dv_type == DIF_TYPE_INT && val == 0) {
            dvm_dyn_free(st, c->ctx->cpu, c->key, n);
            return;
        }
        p = dvm_dyn_lookup(st, c->ctx->cpu, c->key, n, 1);
        if (!p) {
            st->stats[c->ctx->cpu].dynvardrops++;
            return;
        }
    }
    if (dvm_put_value(c, p, dv->dv_type, val) != 0)
        c->fault = DVM_F_BADADDR;
}

/* dvm_run dispatches with a table of label addresses (GNU C computed goto): one indexed
 * jump per instruction instead of a chain of compares. It relies on what dif_verify proved:
 * every opcode has a label, and every path reaches the final RET going forward, so the
 * loop needs no bounds check. */
unsigned dvm_run(struct dvm_cpu *c, const struct dif_prog *p, uint64_t *out)
{
    static const void *const op[DIF_NOPS] = {
        [DIF_NOP] = &&l_nop, [DIF_RET] = &&l_ret, [DIF_OR] = &&l_or, [DIF_XOR] = &&l_xor,
        [DIF_AND] = &&l_and, [DIF_SLL] = &&l_sll, [DIF_SRL] = &&l_srl, [DIF_SRA] = &&l_sra,
        [DIF_ADD] = &&l_add, [DIF_SUB] = &&l_sub, [DIF_MUL] = &&l_mul, [DIF_SDIV] = &&l_sdiv,
        [DIF_UDIV] = &&l_udiv, [DIF_SREM] = &&l_sdiv, [DIF_UREM] = &&l_udiv,
        [DIF_NOT] = &&l_not, [DIF_MOV] = &&l_mov, [DIF_SEXT] = &&l_sext, [DIF_ZEXT] = &&l_zext,
        [DIF_CMP] = &&l_cmp, [DIF_SCMP] = &&l_scmp, [DIF_TST] = &&l_tst, [DIF_BA] = &&l_ba,
        [DIF_BE] = &&l_be, [DIF_BNE] = &&l_bne, [DIF_BG] = &&l_bg, [DIF_BGU] = &&l_bgu,
        [DIF_BGE] = &&l_bge, [DIF_BGEU] = &&l_bgeu, [DIF_BL] = &&l_bl, [DIF_BLU] = &&l_blu,
        [DIF_BLE] = &&l_ble, [DIF_BLEU] = &&l_bleu, [DIF_SETX] = &&l_setx,
        [DIF_SETS] = &&l_sets, [DIF_LDSB] = &&l_load, [DIF_LDSH] = &&l_load,
        [DIF_LDSW] = &&l_load, [DIF_LDUB] = &&l_load, [DIF_LDUH] = &&l_load,
        [DIF_LDUW] = &&l_load, [DIF_LDX] = &&l_load, [DIF_LDGV] = &&l_ldv, [DIF_STGV] = &&l_stv,
        [DIF_LDTV] = &&l_ldv, [DIF_STTV] = &&l_stv, [DIF_LDSV] = &&l_ldv, [DIF_STSV] = &&l_stv,
        [DIF_LDGA] = &&l_ldv, [DIF_STGA] = &&l_stv, [DIF_BUILTIN] = &&l_builtin,
        [DIF_PUSHT] = &&l_pusht, [DIF_PUSHR] = &&l_pushr, [DIF_FLUSHT] = &&l_flusht,
        [DIF_CALL] = &&l_call, [DIF_STB] = &&l_store, [DIF_STH] = &&l_store,
        [DIF_STW] = &&l_store, [DIF_STX] = &&l_store,
    };
    const uint32_t *ins = c->st->obj.insns + p->dp_start;
    uint64_t *r = c->regs;
    /* condition codes are kept as the compared pair and evaluated by the branch: a compare
     * costs two moves, and only the branch that follows pays for the 64-bit comparison.
     * SCMP and TST leave (result, 0). */
    uint64_t ca = 0, cb = 0;
    uint32_t pc = 0, i = ins[0];
    c->ntup = 0;
    c->fault = DVM_F_NONE;
    r[0] = 0;
#define A r[DIF_R1(i)]
#define B r[DIF_R2(i)]
#define RD r[DIF_RD(i)]
#define NEXT() do { i = ins[++pc]; goto *op[DIF_OP(i)]; } while (0)
#define JUMP() do { pc = DIF_TARGET(i); i = ins[pc]; goto *op[DIF_OP(i)]; } while (0)
#define BRANCH(cond) do { if (cond) JUMP(); NEXT(); } while (0)
#define CHECK() do { if (c->fault) goto fault; } while (0)
    goto *op[DIF_OP(i)];
l_nop: NEXT();
l_ret: *out = RD; return DVM_F_NONE;
l_or: RD = A | B; NEXT();
l_xor: RD = A ^ B; NEXT();
l_and: RD = A & B; NEXT();
l_sll: RD = A << (B & 63); NEXT();
l_srl: RD = A >> (B & 63); NEXT();
l_sra: RD = (uint64_t)((int64_t)A >> (B & 63)); NEXT();
l_add: RD = A + B; NEXT();
l_sub: RD = A - B; NEXT();
l_mul: RD = A * B; NEXT();
l_sdiv: {
        uint64_t a = A, b = B;
        if (b == 0) {
            c->fault = DVM_F_DIVZERO;
            goto fault;
        }
        if ((int64_t)b == -1)
            RD = DIF_OP(i) == DIF_SDIV ? 0 - a : 0;
        else
            RD = DIF_OP(i) == DIF_SDIV ? (uint64_t)((int64_t)a / (int64_t)b)
                                       : (uint64_t)((int64_t)a % (int64_t)b);
        NEXT();
    }
l_udiv: {
        uint64_t a = A, b = B;
        if (b == 0) {
            c->fault = DVM_F_DIVZERO;
            goto fault;
        }
        RD = DIF_OP(i) == DIF_UDIV ? a / b : a % b;
        NEXT();
    }
l_not: RD = ~A; NEXT();
l_mov: RD = A; NEXT();
l_sext: {
        uint64_t a = A;
        unsigned n = DIF_R2(i);
        RD = n == 1 ? (uint64_t)(int64_t)(int8_t)a : n == 2 ? (uint64_t)(int64_t)(int16_t)a
                                                  : (uint64_t)(int64_t)(int32_t)a;
        NEXT();
    }
l_zext: {
        uint64_t a = A;
        unsigned n = DIF_R2(i);
        RD = n == 1 ? (uint8_t)a : n == 2 ? (uint16_t)a : (uint32_t)a;
        NEXT();
    }
l_cmp: ca = A; cb = B; NEXT();
l_scmp: {
        unsigned la = 0, lb = 0;
        uint64_t a = A, b = B;
        const char *sa = dvm_str(c, a, &la), *sb = dvm_str(c, b, &lb);
        if (!sa || !sb) {
            c->fault = DVM_F_BADADDR;
            c->fault_addr = sa ? b : a;
            goto fault;
        }
        int d = memcmp(sa, sb, la < lb ? la : lb);
        if (d == 0)
            d = la < lb ? -1 : la > lb;
        ca = (uint64_t)(int64_t)(d < 0 ? -1 : d > 0);
        cb = 0;
        NEXT();
    }
l_tst: ca = A != 0; cb = 0; NEXT();
l_ba: JUMP();
l_be: BRANCH(ca == cb);
l_bne: BRANCH(ca != cb);
l_bg: BRANCH((int64_t)ca > (int64_t)cb);
l_bgu: BRANCH(ca > cb);
l_bge: BRANCH((int64_t)ca >= (int64_t)cb);
l_bgeu: BRANCH(ca >= cb);
l_bl: BRANCH((int64_t)ca < (int64_t)cb);
l_blu: BRANCH(ca < cb);
l_ble: BRANCH((int64_t)ca <= (int64_t)cb);
l_bleu: BRANCH(ca <= cb);
l_setx: RD = c->st->obj.ints[DIF_IDX(i)]; NEXT();
l_sets: RD = (uint64_t)(uintptr_t)(c->st->obj.strs + DIF_IDX(i)); NEXT();
l_load: RD = load(c, DIF_OP(i), A); CHECK(); NEXT();
l_store: store(c, DIF_OP(i), RD, A); CHECK(); NEXT();
l_ldv: RD = var_load(c, DIF_OP(i), DIF_IDX(i)); CHECK(); NEXT();
l_stv: var_store(c, DIF_OP(i), DIF_IDX(i), RD); CHECK(); NEXT();
l_builtin: RD = dvm_builtin(c, DIF_IDX(i)); CHECK(); NEXT();
l_pusht:
    if (c->ntup == DIF_TUPMAX) {
        c->fault = DVM_F_TUPLE;
        goto fault;
    }
    c->tuptype[c->ntup] = (uint8_t)DIF_R2(i);
    c->tup[c->ntup++] = A;
    NEXT();
l_pushr:
    if (c->nrec == DIF_RECMAX) {
        c->fault = DVM_F_TUPLE;
        goto fault;
    }
    c->rectype[c->nrec] = (uint8_t)DIF_R2(i);
    c->rec[c->nrec++] = A;
    NEXT();
l_flusht: c->ntup = 0; NEXT();
l_call: RD = subr(c, DIF_IDX(i)); CHECK(); NEXT();
#undef A
#undef B
#undef RD
#undef NEXT
#undef JUMP
#undef BRANCH
#undef CHECK
fault:
    c->fault_pc = pc;
    return c->fault;
}
