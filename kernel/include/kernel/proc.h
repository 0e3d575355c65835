// SPDX-License-Identifier: MIT
// Processes: user programs linked into the image, one instance per program at a time (each
// program is linked for its own flash and RAM slot). A process owns threads, channels,
// connections, timers and interrupt attachments; exit or a fault releases them all and leaves
// a zombie until its parent reaps it with ProcWait.
#ifndef KERNEL_PROC_H
#define KERNEL_PROC_H

#include <kernel/kernel.h>
#include <kernel/list.h>
#include <uapi/kapi.h>
#include <uapi/ktrace.h>
#include <kernel/ktrace_state.h> // struct kuring

struct thread;

enum proc_state { PROC_FREE = 0, PROC_ALIVE, PROC_ZOMBIE };

// Console characters (SYS_WRITEC) a process's line gathers before a write: a longer line is
// cut, and another process's line may come in between (dtrace's fault lines are about 140).
// A board short of kernel RAM sets less (BOARD_CONSOLE_LINE in its board.mk).
#ifndef KCON_LINE
#define KCON_LINE 256
#endif

struct proc {
    enum proc_state state;
    bool exiting;               // teardown started; no new threads
    bool irq_refusal_said;      // the console said which lines it may attach (kernel/irq.c)
    int32_t pid;
    int32_t ppid;
    const struct kapp_header *app;
    uint32_t ram_base, ram_size;
    uint32_t flash_base, flash_size;
    uint32_t map_base, map_len;   // read-only mapping of the trace ring (its logger), or 0
    uint32_t map2_base, map2_len; // read-only mapping of the D engine (its consumer), or 0
    struct kuring ur;           // its user-event ring, shared by its threads (kernel/kuring.c)
    struct list threads;
    int32_t nthreads;
    int32_t next_tid;
    int32_t exit_status;        // wait status (uapi/kapi.h KW_*)
    int32_t npulses;            // queued pulses charged to it (KMAX_PULSES_PER_PROC)
    uint32_t semihost_handles[4]; // host file handles 0..127 this process opened
    int32_t shost_errno;        // what SYS_ERRNO answers after the proxy refused a call
    uint16_t con_len;           // console text gathered (kconsole.c), a line at a time
    char con_line[KCON_LINE];
    char name[KNAME_MAX];
    uint32_t quota_id;          // its quota domain: proc_same_quota()
};

extern struct proc k_procs[KMAX_PROCS];

// The highest priority p may use (uapi/kapi.h KPRIO_UNPRIV_MAX): 255 for a privileged
// program (and for kernel threads, p NULL), else 63 or its program's own PRIO if higher.
static inline int proc_prio_ceiling(const struct proc *p)
{
    if (!p || !p->app || (p->app->flags & KAPP_F_PRIV))
        return KPRIO_MAX;
    return p->app->priority > KPRIO_UNPRIV_MAX ? (int)p->app->priority : KPRIO_UNPRIV_MAX;
}

// How many objects of a pool p may hold: `lim` (kernel.h KLIM_*), or the whole pool for a
// privileged process or the kernel (p NULL).
static inline int proc_limit(const struct proc *p, int lim)
{
    return (!p || !p->app || (p->app->flags & KAPP_F_PRIV)) ? 0x7fffffff : lim;
}

// Is p privileged (KAPP_F_PRIV), or the kernel (p NULL)? No quota bounds it.
static inline bool proc_privileged(const struct proc *p)
{
    return !p || !p->app || (p->app->flags & KAPP_F_PRIV);
}

// Quotas hold for a tree (docs/ARCHITECTURE.md's privilege model, docs/hostile.md): an
// unprivileged process started by an unprivileged one shares its quota domain
// (proc.quota_id), so the objects of every process of the tree count against one budget, a
// quarter of each pool; and unprivileged processes together never take the last eighth of a
// pool (KLIM_RESERVE), so a privileged process always gets its objects.
static inline bool proc_same_quota(const struct proc *a, const struct proc *b)
{
    return a && b && a->quota_id == b->quota_id;
}

// May p take one more object of a pool of `pool` objects, `used` of them in use, `held` by
// p's quota domain? Always for a privileged process or the kernel.
static inline bool proc_may_take(const struct proc *p, int held, int used, int pool, int lim)
{
    if (proc_limit(p, lim) == 0x7fffffff)
        return true;
    return held < lim && pool - used > KLIM_RESERVE(pool);
}

// proc_may_take over a pool that is an array of n objects with an `in_use` flag and the process
// that took each in member `owner_member`: counts them, then asks.
#define proc_may_take_from(p, pool, n, owner_member, lim) ({                              \
    int held_ = 0, used_ = 0;                                                            \
    for (int i_ = 0; i_ < (int)(n); i_++) {                                              \
        used_ += (pool)[i_].in_use;                                                      \
        held_ += (pool)[i_].in_use && proc_same_quota((pool)[i_].owner_member, (p));     \
    }                                                                                    \
    proc_may_take((p), held_, used_, (int)(n), (lim));                                   \
})

// Such a pool's first object not in use, taken for process p (marked in use, p in member
// owner_member) if p's quota allows one more (proc_may_take_from); NULL if it does not, or
// every object is in use. The exclusive side's (kernel/klock.h): objects are created there alone.
#define proc_pool_take(p, pool, n, owner_member, lim) ({                                 \
    __typeof__(&(pool)[0]) got_ = NULL;                                                  \
    if (proc_may_take_from((p), (pool), (n), owner_member, (lim)))                       \
        for (int j_ = 0; j_ < (int)(n) && !got_; j_++)                                   \
            if (!(pool)[j_].in_use) {                                                    \
                got_ = &(pool)[j_];                                                      \
                got_->in_use = true;                                                     \
                got_->owner_member = (p);                                                \
            }                                                                            \
    got_;                                                                                \
})

// The object of such a pool that a process names by id (its index + base): in use, and
// taken by process p; NULL otherwise.
#define proc_pool_owned(pool, n, id, base, owner_member, p) ({                           \
    int i_ = (id) - (base);                                                              \
    i_ < 0 || i_ >= (int)(n) || !(pool)[i_].in_use || (pool)[i_].owner_member != (p)     \
        ? NULL : &(pool)[i_];                                                            \
})

void proc_init(void);
// Registers the programs found in the image's program slots (kernel/kview.c). Returns how many.
int proc_scan_apps(uint32_t flash_base, uint32_t slot_size, unsigned nslots);
// Starts a program; `arg` reaches it as ProcArg(). Returns its pid or a negative errno.
int proc_spawn(const char *name, int prio, uint32_t arg, struct proc *parent);
// ProcKill: `killer` (KAPP_F_PRIV) ends process pid as killed (KSIG_KILL).
int proc_kill(struct proc *killer, int pid);
// Ends a process with a wait status: kills its threads, frees what it owns.
void proc_exit(struct proc *p, int32_t wait_status);
// Reaps a zombie child: pid > 0 that child, -1 any. Blocks the caller when none is ready.
int proc_wait(struct thread *caller, int pid, uint32_t status_ptr);
// (Programs by name, processes by pid and a process's memory: kernel/kview.h.)
// Called when the thread count of a process drops to zero.
void proc_last_thread_gone(struct proc *p, int32_t status);

// Set when pid 1 ends: the kernel halts the system with this wait status.
extern bool k_system_done;
extern int32_t k_system_status;

#endif
