// SPDX-License-Identifier: MIT
// Processes and the programs they run. Programs are found by scanning the image's program
// slots for a struct kapp_header; each is linked for its own flash and RAM slot, so a program
// runs as at most one process at a time (spawning it again while it lives gives EBUSY).
// Life cycle: FREE -> ALIVE (spawn) -> ZOMBIE (last thread gone, or killed) -> FREE (reaped by
// the parent, or at once when it has none). pid 1's end halts the system with its status.
#include <kernel/proc.h>
#include <kernel/kview.h>
#include <kernel/thread.h>
#include <kernel/sched.h>
#include <kernel/ipc.h>
#include <kernel/sync.h>
#include <kernel/irq.h>
#include <kernel/arch.h>
#include <kernel/board.h>
#include <kernel/utimer.h>
#include <kernel/shost.h>
#include <kernel/ktrace_kcall.h>

struct proc k_procs[KMAX_PROCS];
bool k_system_done;
int32_t k_system_status;

static int32_t next_pid;

void proc_init(void)
{
    kmemset(k_procs, 0, sizeof(k_procs));
    next_pid = 1;
    k_system_done = false;
    k_system_status = 0;
}

int proc_spawn(const char *name, int prio, uint32_t arg, struct proc *parent)
{
    const struct kapp_header *app = proc_find_app(name);
    struct proc *p = NULL;

    if (!app)
        return -ENOENT;
    if (prio < 0 || prio > KPRIO_MAX)
        return -EINVAL;
    // A process cannot start what it could not do itself: a priority above its ceiling, or
    // a program with flags it lacks (unless it is privileged). Kernel boot (parent NULL) may.
    if (parent && (prio > proc_prio_ceiling(parent) ||
                   (!(parent->app->flags & KAPP_F_PRIV) && (app->flags & ~parent->app->flags))))
        return -EPERM;
    for (unsigned i = 0; i < KMAX_PROCS; i++) {
        if (k_procs[i].state != PROC_FREE && k_procs[i].app == app)
            return -EBUSY;
        if (!p && k_procs[i].state == PROC_FREE)
            p = &k_procs[i];
    }
    if (!p)
        return -EAGAIN;
    kmemset(p, 0, sizeof(*p));
    list_init(&p->threads);
    struct thread *t = thread_alloc(p);
    if (!t)
        return -EAGAIN;

    p->state = PROC_ALIVE;
    p->pid = next_pid++;
    p->ppid = parent ? parent->pid : 0;
    p->app = app;
    p->ram_base = app->ram_base;
    p->ram_size = app->ram_size;
    p->flash_base = (uint32_t)(uintptr_t)app;
    p->flash_size = app->data_source + app->data_size - p->flash_base;
    // ARM: its unwind tables, after the .data image (ldscripts/app-exidx.ld), are its to read
    // too (ustack( ) reads them as the process: kernel/arch/armv7m/unwind.c)
    // (within its own slots: up to the next program's, the slots being in order)
    uint32_t span = proc_app_end(p) - p->flash_base;
    if (app->exidx_end > p->flash_base + p->flash_size &&
        app->exidx_end - p->flash_base <= span)
        p->flash_size = app->exidx_end - p->flash_base;
    p->next_tid = 1;
    kstrlcpy(p->name, app->name, sizeof(p->name));
    // Its quota domain (proc.h proc_same_quota): an unprivileged parent's, or a new one.
    static uint32_t next_quota_id;
    p->quota_id = parent && !(parent->app->flags & KAPP_F_PRIV) ? parent->quota_id
                                                                : ++next_quota_id;

    // Load: .data from its flash image, .bss zeroed; the rest of the slot is left alone.
    kmemcpy((void *)(uintptr_t)app->data_start, (const void *)(uintptr_t)app->data_source,
            app->data_size);
    kmemset((void *)(uintptr_t)app->bss_start, 0, app->bss_size);
    kusdt_proc_start(p);        // its enabled USDT probes' semaphores, raised in it

    t->tid = (uint16_t)p->next_tid++;
    thread_set_trace_ids(t, (uint32_t)p->pid, t->tid);
    t->base_prio = t->prio = (uint8_t)(prio ? prio : (int)app->priority);
    if (t->prio < KPRIO_MIN)
        t->base_prio = t->prio = KPRIO_MIN;
    thread_set_name(t, "main");
    list_push_back(&p->threads, &t->plink);
    p->nthreads = 1;
    t->stack_base = app->ram_base;      // the main stack: the RAM slot's bottom (user/module.mk)
    t->stack_top = app->stack_top;
    arch_thread_setup(t, app->entry, arg, 0, app->stack_top, false);
    ktrace_proc(p, KEV_PR_CREATE_NAME);
    ktrace_image(p);
    ktrace_thread(t, KEV_TH_CREATE);
    ktrace_thread_name(t);
    sched_make_ready(t, false);
    return p->pid;
}

// Frees a zombie's slot and everything left of it.
static void proc_free(struct proc *p)
{
    p->state = PROC_FREE;
}

// Tries to hand zombie `child` to a parent thread waiting in ProcWait. True when reaped.
static bool proc_try_reap(struct proc *child)
{
    struct proc *parent = child->ppid ? proc_by_pid(child->ppid) : NULL;
    struct list *pos;

    if (!parent || parent->state != PROC_ALIVE)
        return false;
    list_for_each(pos, &parent->threads) {
        struct thread *w = list_entry(pos, struct thread, plink);
        if (w->state != THS_JOIN || !w->wait_child)
            continue;
        if (w->join_tid != -1 && w->join_tid != child->pid)
            continue;
        if (w->info_buf)
            *(volatile int32_t *)(uintptr_t)w->info_buf = child->exit_status;
        int pid = child->pid;
        proc_free(child);
        thread_unblock(w, pid);
        return true;
    }
    return false;
}

// The first thread of p still alive, or NULL.
static struct thread *first_live_thread(struct proc *p)
{
    struct list *pos;
    list_for_each(pos, &p->threads) {
        struct thread *t = list_entry(pos, struct thread, plink);
        if (t->state != THS_DEAD && !t->dying)   // a dying one ends on its own CPU
            return t;
    }
    return NULL;
}

void proc_exit(struct proc *p, int32_t wait_status)
{
    struct thread *t;

    if (p->state != PROC_ALIVE || p->exiting)
        return;
    p->exiting = true;
    p->exit_status = wait_status;
    // No iterator is kept across thread_destroy(): destroying one thread may free others (the
    // last live one's proc_last_thread_gone() frees every finished, unjoined thread), so the
    // list is searched again from its head after each. Each pass kills one thread: at most
    // KMAX_THREADS passes. The last one ran proc_last_thread_gone().
    while ((t = first_live_thread(p)) != NULL)
        thread_destroy(t, 0);
}

void proc_last_thread_gone(struct proc *p, int32_t status)
{
    struct list *pos, *tmp;

    if (!p->exiting) {
        p->exiting = true;
        p->exit_status = (status & 0xff) << 8;
    }
    list_for_each_safe(pos, tmp, &p->threads)
        thread_free(list_entry(pos, struct thread, plink));
    ipc_proc_gone(p);
    sync_proc_gone(p);
    irq_proc_gone(p);
    utimer_proc_gone(p);
    shost_proc_gone(p);
    kuring_proc_gone(p);    // its last ring events, before the trace forgets it
    ktrace_proc_gone(p);
    kdt_proc_gone(p);
    ktrace_proc(p, KEV_PR_DESTROY_NAME);
    p->state = PROC_ZOMBIE;

    // Children lose their parent: they are reaped by nobody, so freed as they end.
    for (unsigned i = 0; i < KMAX_PROCS; i++) {
        struct proc *c = &k_procs[i];
        if (c->state != PROC_FREE && c->ppid == p->pid) {
            c->ppid = 0;
            if (c->state == PROC_ZOMBIE)
                proc_free(c);
        }
    }
    if (p->pid == 1) {
        k_system_done = true;
        k_system_status = p->exit_status;
    }
    if (!proc_try_reap(p) && p->ppid == 0)
        proc_free(p);
}

int proc_kill(struct proc *killer, int pid)
{
    if (!(killer->app->flags & KAPP_F_PRIV))
        return -EPERM;
    struct proc *x = proc_by_pid(pid);
    if (!x || x->state != PROC_ALIVE || x->exiting)
        return -ESRCH;
    kprintf("kernel: process %d (%s) killed by process %d (%s)\n", (int)x->pid, x->name,
            (int)killer->pid, killer->name);
    if (!list_empty(&x->threads))   // proc:::signal-send, killer's context
        ktrace_signal_send(list_entry(x->threads.next, struct thread, plink), (uint32_t)x->pid);
    proc_exit(x, KSIG_KILL);
    return 0;
}

int proc_wait(struct thread *caller, int pid, uint32_t status_ptr)
{
    struct proc *self = caller->proc;
    bool have_child = false;

    if (pid == 0 || pid < -1)
        return -EINVAL;
    if (status_ptr && !proc_can_write(self, status_ptr, sizeof(int32_t)))
        return -EFAULT;
    for (unsigned i = 0; i < KMAX_PROCS; i++) {
        struct proc *c = &k_procs[i];
        if (c->state == PROC_FREE || c->ppid != self->pid || (pid != -1 && c->pid != pid))
            continue;
        have_child = true;
        if (c->state == PROC_ZOMBIE) {
            if (status_ptr)
                *(volatile int32_t *)(uintptr_t)status_ptr = c->exit_status;
            int cpid = c->pid;
            proc_free(c);
            return cpid;
        }
    }
    if (!have_child)
        return -ECHILD;
    caller->join_tid = pid;
    caller->info_buf = status_ptr;
    caller->wait_child = true;
    thread_block(caller, THS_JOIN, NULL);
    return 0;
}

