// SPDX-License-Identifier: MIT
// The probe table: every probe the kernel can fire, named provider:module:function:name, with
// a stable numeric id the kernel passes to dvm_fire(). Ids are computed, not looked up, so a
// hook costs a constant (see DPROBE_KCALL_ENTRY). Timer probes (tick-N, profile-N) are not in
// the table: the compiler creates them with ids from DPROBE_TIMER_BASE. Arguments of each
// probe are documented in docs/d-probes.md.
#ifndef D_DPROBES_H
#define D_DPROBES_H

#include <stdint.h>

#define DPROBE_NONE  0u
#define DPROBE_BEGIN 1u
#define DPROBE_END   2u
#define DPROBE_ERROR 3u
#define DPROBE_KCALL_BASE 4u       /* kercall::<Name>:entry = base + 2n, :return = base + 2n+1 */
#define DPROBE_KCALL_MAX  128u     /* kernel-call numbers below this get probes */
#define DPROBE_KCALL_ENTRY(n)  (DPROBE_KCALL_BASE + 2u * (n))
#define DPROBE_KCALL_RETURN(n) (DPROBE_KCALL_BASE + 2u * (n) + 1u)
#define DPROBE_IRQ_BASE   (DPROBE_KCALL_BASE + 2u * DPROBE_KCALL_MAX) /* interrupt::irqN:entry/exit */
#define DPROBE_IRQ_MAX    32u
#define DPROBE_IRQ_ENTRY(n) (DPROBE_IRQ_BASE + 2u * (n))
#define DPROBE_IRQ_EXIT(n)  (DPROBE_IRQ_BASE + 2u * (n) + 1u)
#define DPROBE_FIXED_BASE (DPROBE_IRQ_BASE + 2u * DPROBE_IRQ_MAX)

/* What a probe's firings need of the kernel's hooks: a bit per trace class whose sites fire
 * it (1u << KEV_C_*, trace/kev.h's numbers), and the traced kernel exit's D side (on-cpu,
 * remain-cpu, a call's return, a thread's first run). The kernel turns on only what a loaded
 * program's probes need (kernel/kdtrace.c, kdt_hooks), so that a probe no clause enables costs
 * nothing at its site, as DTrace's disabled probes do (docs/dtrace-target.md). */
#define DPROBE_H_KER_CALL 0x04u
#define DPROBE_H_INT      0x08u
#define DPROBE_H_PR_TH    0x10u
#define DPROBE_H_SYSTEM   0x20u
#define DPROBE_H_USER     0x40u
#define DPROBE_H_COMM     0x80u
#define DPROBE_H_CLASSES  0xfcu    /* every class a hook records */
#define DPROBE_H_EXIT     0x100u   /* (its ONCPU and REMAIN_CPU then leave the inline exit) */
/* lockstat's: the SYNC_* calls' entries and returns and their SYNC_WAIT (kernel/klockstat.c) */
#define DPROBE_H_LOCKSTAT (DPROBE_H_KER_CALL | DPROBE_H_SYSTEM | DPROBE_H_EXIT)

/* The named probes after the computed ranges, one line each, in id order: X(ID, provider,
 * name, hooks) gives DPROBE_<ID> its id, dprobe_get its description and dprobe_hooks what it
 * needs (trace/d/probes.c), so that a probe cannot have an id and no name, nor fire from a
 * hook the kernel left off. A new probe goes at the end: compiled D objects and the replay of
 * a capture (tools/dtrace) carry these ids. (The spin-lock probes and exec-failure fire from
 * the lock and ProcSpawn themselves: no hook.) */
#define DPROBE_FIXED_LIST(X) \
    X(SCHED_ONCPU, "sched", "on-cpu", DPROBE_H_EXIT) \
    X(SCHED_OFFCPU, "sched", "off-cpu", DPROBE_H_PR_TH) \
    X(SCHED_CREATE, "sched", "thread-create", DPROBE_H_PR_TH) \
    X(SCHED_EXIT, "sched", "thread-exit", DPROBE_H_PR_TH) \
    X(SCHED_WAKEUP, "sched", "wakeup", DPROBE_H_PR_TH) \
    X(SCHED_BLOCK_SEND, "sched", "block-send", DPROBE_H_PR_TH) \
    X(SCHED_BLOCK_RECEIVE, "sched", "block-receive", DPROBE_H_PR_TH) \
    X(SCHED_BLOCK_REPLY, "sched", "block-reply", DPROBE_H_PR_TH) \
    X(SCHED_BLOCK_MUTEX, "sched", "block-mutex", DPROBE_H_PR_TH) \
    X(SCHED_BLOCK_COND, "sched", "block-cond", DPROBE_H_PR_TH) \
    X(SCHED_BLOCK_SEM, "sched", "block-sem", DPROBE_H_PR_TH) \
    X(SCHED_BLOCK_SLEEP, "sched", "block-sleep", DPROBE_H_PR_TH) \
    X(SCHED_BLOCK_JOIN, "sched", "block-join", DPROBE_H_PR_TH) \
    X(PROC_CREATE, "proc", "create", DPROBE_H_PR_TH) \
    X(PROC_EXIT, "proc", "exit", DPROBE_H_PR_TH) \
    X(MSG_SEND, "msg", "send", DPROBE_H_COMM) \
    X(MSG_RECEIVE, "msg", "receive", DPROBE_H_COMM) \
    X(MSG_REPLY, "msg", "reply", DPROBE_H_COMM) \
    X(MSG_PULSE, "msg", "pulse", DPROBE_H_COMM) \
    X(MSG_ERROR, "msg", "error", DPROBE_H_COMM) \
    X(USER_EVENT, "user", "event", DPROBE_H_USER) \
    /* Solaris's sched and proc probes (docs/d-probes.md) */ \
    X(SCHED_ENQUEUE, "sched", "enqueue", DPROBE_H_PR_TH) \
    X(SCHED_DEQUEUE, "sched", "dequeue", DPROBE_H_PR_TH) \
    X(SCHED_SLEEP, "sched", "sleep", DPROBE_H_PR_TH) \
    X(SCHED_PREEMPT, "sched", "preempt", DPROBE_H_PR_TH) \
    X(SCHED_REMAIN_CPU, "sched", "remain-cpu", DPROBE_H_SYSTEM | DPROBE_H_EXIT) \
    X(SCHED_SURRENDER, "sched", "surrender", DPROBE_H_SYSTEM) \
    X(SCHED_CHANGE_PRI, "sched", "change-pri", DPROBE_H_SYSTEM) \
    X(SCHED_TICK, "sched", "tick", DPROBE_H_INT) \
    X(PROC_EXEC_SUCCESS, "proc", "exec-success", DPROBE_H_PR_TH | DPROBE_H_EXIT) \
    X(PROC_LWP_CREATE, "proc", "lwp-create", DPROBE_H_PR_TH) \
    X(PROC_LWP_START, "proc", "lwp-start", DPROBE_H_PR_TH | DPROBE_H_EXIT) \
    X(PROC_LWP_EXIT, "proc", "lwp-exit", DPROBE_H_PR_TH) \
    X(PROC_SIGNAL_SEND, "proc", "signal-send", DPROBE_H_SYSTEM) \
    X(PROC_SIGNAL_HANDLE, "proc", "signal-handle", DPROBE_H_SYSTEM) \
    X(PROC_FAULT, "proc", "fault", DPROBE_H_SYSTEM) \
    /* contention, after illumos's lockstat */ \
    X(LOCK_ADAPTIVE_ACQUIRE, "lockstat", "adaptive-acquire", DPROBE_H_LOCKSTAT) \
    X(LOCK_ADAPTIVE_BLOCK, "lockstat", "adaptive-block", DPROBE_H_LOCKSTAT) \
    X(LOCK_ADAPTIVE_RELEASE, "lockstat", "adaptive-release", DPROBE_H_LOCKSTAT) \
    X(LOCK_CV_BLOCK, "lockstat", "cv-block", DPROBE_H_LOCKSTAT) \
    X(LOCK_SEM_BLOCK, "lockstat", "sem-block", DPROBE_H_LOCKSTAT) \
    X(LOCK_SEM_ACQUIRE, "lockstat", "sem-acquire", DPROBE_H_LOCKSTAT) \
    X(LOCK_SEM_RELEASE, "lockstat", "sem-release", DPROBE_H_LOCKSTAT) \
    /* a spawn as Solaris's fork and exec (docs/d-probes.md); exec-failure fires at \
     * the failed return of ProcSpawn, DPROBE_KCALL_PROC_SPAWN */ \
    X(PROC_START, "proc", "start", DPROBE_H_PR_TH | DPROBE_H_EXIT) \
    X(PROC_EXEC, "proc", "exec", DPROBE_H_PR_TH | DPROBE_H_EXIT) \
    X(PROC_EXEC_FAILURE, "proc", "exec-failure", 0) \
    /* the kernel's spin locks (several CPUs) */ \
    X(LOCK_SPIN_ACQUIRE, "lockstat", "spin-acquire", 0) \
    X(LOCK_SPIN_SPIN, "lockstat", "spin-spin", 0) \
    X(LOCK_SPIN_RELEASE, "lockstat", "spin-release", 0)

#define DPROBE_FIXED_ID(id, prov, name, hooks) DPROBE_##id,
enum dprobe_fixed {
    DPROBE_FIXED_BEFORE = DPROBE_FIXED_BASE - 1u,
    DPROBE_FIXED_LIST(DPROBE_FIXED_ID)
    DPROBE_COUNT /* one past the last table id */
};
#undef DPROBE_FIXED_ID

/* ProcSpawn's kernel-call number (uapi/kcall.h; the kernel checks it): dtrace -i fires
 * proc:::exec-failure at its failed return, as the kernel does */
#define DPROBE_KCALL_PROC_SPAWN 44u

#define DPROBE_TIMER_BASE 0x10000u /* tick-/profile- probes: DPROBE_TIMER_BASE + k */
/* fbt::<function>:entry and :return (docs/fbt.md): computed from the function's index in the
 * kernel's fbt table (d/dfbt.h), which the compiler and the kernel read alike. */
#define DPROBE_FBT_BASE   0x20000u
#define DPROBE_FBT_END    (DPROBE_FBT_BASE + 2u * 0x8000u)  /* DFBT_MAXFUNCS functions */
#define DPROBE_FBT_ENTRY(f)  (DPROBE_FBT_BASE + 2u * (f))
#define DPROBE_FBT_RETURN(f) (DPROBE_FBT_BASE + 2u * (f) + 1u)
#define DPROBE_IS_FBT(id)    ((id) >= DPROBE_FBT_BASE && (id) < DPROBE_FBT_END)
#define DPROBE_FBT_FUNC(id)  (((id) - DPROBE_FBT_BASE) / 2u)
#define DPROBE_FBT_MODULE "kernel"   /* the kernel's one load object */

/* USDT probes (docs/usdt.md): a program's static probes, as its ELF file's .note.stapsdt
 * describes them, one id a site: DPROBE_USDT_BASE + the site's index in the table the host
 * tool read (dprobe_usdt_use). The compiled object carries each enabled site's address, its
 * is-enabled semaphore's (0: none) and its arguments' places (dif_probe's dp_period, low word
 * and high word, and dp_pad), which the kernel checks against the program's text and memory
 * before it places anything. */
#define DPROBE_USDT_BASE  0x40000u
#define DPROBE_USDT_MAX   256u
#define DPROBE_USDT_END   (DPROBE_USDT_BASE + DPROBE_USDT_MAX)
#define DPROBE_IS_USDT(id) ((id) >= DPROBE_USDT_BASE && (id) < DPROBE_USDT_END)

/* pid probes (docs/pid.md): pid<PID>:<program>:<function>:entry, a program's function named
 * from its ELF file's symbol table, one id a function: DPROBE_PID_BASE + 2 x the function's
 * index in the table the host tool read (dprobe_pid_use). The provider's process is not in
 * the id: the compiled object carries it with the function's address in dif_probe's
 * dp_period (low word the address, high word the pid, DPROBE_PID_TARGET for $target), which
 * the kernel checks against the process and its program's text before it places anything.
 * An id's :return is one dif_probe per return instruction of the function (the same id, each
 * its own address), with the function's first instruction in dp_pad (arg0 is the offset). */
#define DPROBE_PID_BASE   0x50000u
#define DPROBE_PID_MAX    4096u
#define DPROBE_PID_END    (DPROBE_PID_BASE + 2u * DPROBE_PID_MAX)
#define DPROBE_IS_PID(id) ((id) >= DPROBE_PID_BASE && (id) < DPROBE_PID_END)
#define DPROBE_PID_TARGET 0xffffffffu   /* dp_period's high word: pid$target */
/* The pid probes one program enables at most: the kernel's site table (kernel/kpid.h), one
 * site a probe. A glob matching more places these and counts the rest (docs/pid.md). */
#define DPROBE_PID_SITES_MAX 1024u

struct dprobe_desc {
    const char *prov, *mod, *func, *name;
};

/* dprobe_hooks: the hooks probe id's firings need (DPROBE_H_*): a kernel call's entry and
 * return their class (the exit's general path fires the return), an interrupt's the INT class, a named probe its column; a
 * row's own probe every class (which row fires it is the generated helpers' knowledge); the
 * rest (BEGIN, END, ERROR, timers, fbt, pid, USDT) none. */
uint32_t dprobe_hooks(uint32_t id);

/* Probes the event table's rows name (trace/kev_events.h: a row's D column) that no list here
 * has: "provider:::name", each with an id of its own name alone, DPROBE_ROW_BASE plus its
 * hash (dprobe_row_hash), so that adding, moving or removing a row renumbers no other probe.
 * The host's dtrace and dcompile list and compile them (trace/d/row_probes.c walks the rows);
 * the kernel fires them from the emit helper the build generates for the row (tools/emitgen),
 * with the id the same hash gave, so that a row added with a probe of its own is listed, fired
 * live and fired over a capture with no edit to these lists. Two names of one hash are refused
 * (emitgen fails the build, the host's tools say so): rename one. */
#define DPROBE_ROW_BASE   0x60000u
#define DPROBE_ROW_SPAN   0x10000u  /* the ids' range: DPROBE_ROW_BASE + a 16-bit hash */
#define DPROBE_ROW_MAX    64u       /* the rows' own probes the host keeps */
#define DPROBE_ROW_PART   48u   /* a row probe's provider or name, its NUL included, at most */
#define DPROBE_IS_ROW(id) ((id) >= DPROBE_ROW_BASE && (id) < DPROBE_ROW_BASE + DPROBE_ROW_SPAN)
/* dprobe_row_hash: the id of the rows' own probe prov:::name: FNV-1a over "prov:::name",
 * folded to 16 bits. */
static inline uint32_t dprobe_row_hash(const char *prov, const char *name)
{
    uint32_t h = 2166136261u;
    for (const char *s = prov; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    for (const char *s = ":::"; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    for (const char *s = name; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return DPROBE_ROW_BASE + ((h ^ (h >> 16)) & (DPROBE_ROW_SPAN - 1u));
}
/* dprobe_rows_use: the rows' probes, as the host's tools keep them (tools/common/row_probes.c):
 * get(id, d) 0 and its description, or -1 when no row probe has id; next(id) the next row
 * probe's id above id (DPROBE_NONE: the first), 0 after the last. Kept by pointer; NULL: none
 * (the kernel's: it fires them from generated helpers and never lists them). */
struct dprobe_rowset {
    int (*get)(uint32_t id, struct dprobe_desc *d);
    uint32_t (*next)(uint32_t id);
};
void dprobe_rows_use(const struct dprobe_rowset *rows);
/* dprobe_rows_walk: fn(user, id, provider, name) for each of the rows' own probes, in the rows'
 * order, each name once, until fn returns non-zero; returns how many the rows name. */
typedef int (*dprobe_row_fn)(void *user, uint32_t id, const char *prov, const char *name);
unsigned dprobe_rows_walk(dprobe_row_fn fn, void *user);
/* dprobe_row_id: the id of the rows' own probe "provider:::name" (a row's D column probe), or
 * DPROBE_NONE when it is not one (a fixed probe's name, a family, a pattern). */
uint32_t dprobe_row_id(const char *probe);

/* One USDT site (the module is its program's name, the function the one that holds it). */
struct dprobe_usdt {
    const char *prov, *mod, *func, *name, *args;
    uint32_t addr;
    uint32_t sem;       /* its is-enabled semaphore's address (0: none) */
};
/* dprobe_usdt_use: the USDT sites the process's probe names come from (n at most
 * DPROBE_USDT_MAX); NULL: none. */
void dprobe_usdt_use(const struct dprobe_usdt *sites, unsigned n);
/* dprobe_usdt_site: USDT id's site (NULL: no such site). */
const struct dprobe_usdt *dprobe_usdt_site(uint32_t id);

/* One function a pid probe can name (the module is its program's name): its entry, and its
 * returns when the host's decoder found them all and each is one the kernel can run. */
#define DPROBE_PID_RETS 8u
struct dprobe_pidfn {
    const char *mod, *func;
    uint32_t addr;      /* its first instruction (a Thumb function's value without bit 0) */
    const char *entry_why;           /* NULL, or why :entry cannot be probed */
    uint32_t rets[DPROBE_PID_RETS];  /* its return instructions */
    unsigned nrets;
    const char *ret_why;             /* NULL, or why :return cannot be probed */
};
/* dprobe_pid_use: the functions pid probe names come from (n at most DPROBE_PID_MAX). */
void dprobe_pid_use(const struct dprobe_pidfn *fns, unsigned n);
/* dprobe_pid_fn: function k of that table (NULL: no such function), and their number. */
const struct dprobe_pidfn *dprobe_pid_fn(unsigned k);
unsigned dprobe_pid_count(void);

/* dprobe_get: fills *d for a table id; returns 0, or -1 for an id with no probe (an unused
 * kernel-call number, for instance). */
int dprobe_get(uint32_t id, struct dprobe_desc *d);

struct dfbt;
/* dprobe_fbt_use: the kernel fbt table the process's probe names come from (the image's, read
 * by --kernel, or the board's own kernel's); NULL: no fbt probes. One kernel per process. */
void dprobe_fbt_use(const struct dfbt *t);
const struct dfbt *dprobe_fbt_table(void);
/* dprobe_next: the probe id after `id` that dprobe_get knows (table ids, then fbt ids), or 0
 * after the last; dprobe_next(0) is the first. */
uint32_t dprobe_next(uint32_t id);

/* dprobe_sdt_alias: the Solaris sdt name that also names probe *d (sdt:::interrupt-start for
 * interrupt::irqN:entry, sdt:::interrupt-complete for its exit) into *a; 0 when it has none. */
int dprobe_sdt_alias(const struct dprobe_desc *d, struct dprobe_desc *a);
/* dprobe_syscall_alias: Solaris's syscall name of kercall probe *d (syscall::MsgSend:entry for
 * kercall::MsgSend:entry: the provider's name alone differs) into *a; 0 for any other probe. */
int dprobe_syscall_alias(const struct dprobe_desc *d, struct dprobe_desc *a);
/* dprobe_glob: sh-style match of pattern (*, ?, [...], [!...]) against s; "" matches all. */
int dprobe_glob(const char *pattern, const char *s);

#endif
