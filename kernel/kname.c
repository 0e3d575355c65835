// SPDX-License-Identifier: MIT
// The names of channels: NameCtl (uapi/kapi.h, KNAMECTL_*), under name_attach() and name_open()
// (user/lib/name.c). QNX keeps these names in its path manager (/dev/name/local); this system
// has none, so the kernel keeps them, local to the system, in a small table of its own
// (KMAX_NAMES: kernel RAM is scarce on the smallest board). A name lives exactly as long as its
// channel: channel_teardown (ipc.c) calls kname_channel_gone when the channel is destroyed or
// its process ends, so a dead server's name is gone before anyone can open it. A flood of names
// is bounded by the pool's quotas (KLIM_NAMES a quota domain, proc_may_take), as every pool is.
// A client that starts before its server may wait for the name (KNAMECTL_OPEN_WAIT): it
// blocks NANOSLEEP on name_waiters, the user address of the name it wants in its msg_buf
// (unused in that state), and the attach of that name wakes it with its connection. A timeout
// (TimerTimeout) or a kill takes it off the queue as from any other (thread.c, t->waitq).
// Runs on the exclusive side (not a shared call, kernel/kentry_shared.h): neither this table,
// the waiters nor the channels change under it.
#include <kernel/ipc.h>
#include <kernel/kview.h>
#include <kernel/proc.h>
#include <kernel/kernel.h>

struct kname {
    const struct channel *chan;     // NULL: a free entry
    char name[KNAME_CHAN_MAX];
};

static struct kname names[KMAX_NAMES];
static struct list name_waiters = LIST_INIT(name_waiters);

// Copies the user's name and checks it: its length (without the NUL) or a negative errno.
static int name_copy(const struct proc *p, uint32_t uname, char *name)
{
    int n = proc_copy_string(p, uname, name, KNAME_CHAN_MAX);
    if (n == -EINVAL)
        return -ENAMETOOLONG;   // no NUL within KNAME_CHAN_MAX bytes
    if (n < 0)
        return n;
    if (n == 0)
        return -EINVAL;
    for (int i = 0; i < n; i++)
        if (name[i] <= ' ' || name[i] > '~' || name[i] == '/')
            return -EINVAL;
    return n;
}

static struct kname *name_find(const char *name)
{
    for (int i = 0; i < KMAX_NAMES; i++)
        if (names[i].chan && strcmp(names[i].name, name) == 0)
            return &names[i];
    return NULL;
}

static struct kname *name_of(const struct channel *ch)
{
    for (int i = 0; i < KMAX_NAMES; i++)
        if (names[i].chan == ch)
            return &names[i];
    return NULL;
}

static int name_attach(struct proc *p, const struct channel *ch, const char *name)
{
    if (name_of(ch))
        return -EBUSY;
    if (name_find(name))
        return -EEXIST;
    int held = 0, used = 0;
    struct kname *free = NULL;
    for (int i = 0; i < KMAX_NAMES; i++) {
        if (!names[i].chan) {
            free = free ? free : &names[i];
            continue;
        }
        used++;
        held += proc_same_quota(names[i].chan->owner, p);
    }
    if (!free || !proc_may_take(p, held, used, KMAX_NAMES, KLIM_NAMES))
        return -EAGAIN;
    free->chan = ch;
    kstrlcpy(free->name, name, sizeof(free->name));
    return 0;
}

// Wakes every thread waiting for the name k now has, with a connection to its channel (or
// the error making one gave). A waiter whose name no longer reads (its memory changed under
// it) gets that error too, rather than waiting on for a name it cannot say.
static void name_wake_waiters(const struct kname *k)
{
    struct list *pos, *tmp;
    list_for_each_safe(pos, tmp, &name_waiters) {
        struct thread *w = list_entry(pos, struct thread, qlink);
        char want[KNAME_CHAN_MAX];
        int n = name_copy(w->proc, w->msg_buf, want);
        if (n >= 0 && strcmp(want, k->name) != 0)
            continue;
        thread_unblock(w, n < 0 ? n : ipc_connect_attach(w->proc, k->chan->owner->pid,
                                                         k->chan->chid));
    }
}

static int name_open(struct thread *t, uint32_t arg, uint32_t uname, const char *name)
{
    if (arg != 0 && arg != KNAMECTL_OPEN_WAIT)
        return -EINVAL;
    struct kname *k = name_find(name);
    if (k)
        return ipc_connect_attach(t->proc, k->chan->owner->pid, k->chan->chid);
    if (arg != KNAMECTL_OPEN_WAIT)
        return -ENOENT;
    t->msg_buf = uname;
    thread_block(t, THS_NANOSLEEP, &name_waiters);
    return 0;   // the result comes with the attach (a coid) or the timeout (0)
}

int kname_ctl(struct thread *t, uint32_t cmd, uint32_t arg, uint32_t uname)
{
    struct proc *p = t->proc;
    char name[KNAME_CHAN_MAX];
    int n = name_copy(p, uname, name);
    if (n < 0)
        return n;
    const struct channel *ch;
    struct kname *k;
    switch (cmd) {
    case KNAMECTL_ATTACH: {
        ch = ipc_channel_of(p, (int)arg);
        int r = ch ? name_attach(p, ch, name) : -ESRCH;
        if (r == 0)
            name_wake_waiters(name_of(ch));
        return r;
    }
    case KNAMECTL_DETACH:
        ch = ipc_channel_of(p, (int)arg);
        if (!ch)
            return -ESRCH;
        k = name_of(ch);
        if (!k || strcmp(k->name, name) != 0)
            return -ENOENT;
        k->chan = NULL;
        return 0;
    case KNAMECTL_OPEN:
        return name_open(t, arg, uname, name);
    default:
        return -EINVAL;
    }
}

void kname_channel_gone(const struct channel *ch)
{
    struct kname *k = name_of(ch);
    if (k)
        k->chan = NULL;
}
