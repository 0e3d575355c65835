// SPDX-License-Identifier: MIT
// The names of channels: NameCtl (uapi/kapi.h, KNAMECTL_*), under name_attach() and name_open()
// (user/lib/name.c). QNX keeps these names in its path manager (/dev/name/local); this system
// has none, so the kernel keeps one name per channel, in the channel itself (struct channel),
// local to the system. A name lives exactly as long as its channel: channel_teardown (ipc.c)
// clears it when the channel is destroyed or its process ends, so a dead server's name is gone
// before anyone can open it. A flood of names is bounded by the channel quota (each name needs
// a channel of its own, KLIM_CHANNELS). Runs on the exclusive side (not a shared call,
// kernel/kentry_shared.h): the channel table does not change under it.
#include <kernel/ipc.h>
#include <kernel/proc.h>
#include <kernel/kernel.h>

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

static struct channel *name_find(const char *name)
{
    for (int i = 0; i < KMAX_CHANNELS; i++)
        if (k_channels[i].in_use && strcmp(k_channels[i].name, name) == 0)
            return &k_channels[i];
    return NULL;
}

int kname_ctl(struct proc *p, uint32_t cmd, uint32_t arg, uint32_t uname)
{
    char name[KNAME_CHAN_MAX];
    int n = name_copy(p, uname, name);
    if (n < 0)
        return n;
    struct channel *ch;
    switch (cmd) {
    case KNAMECTL_ATTACH:
        ch = ipc_channel_of(p, (int)arg);
        if (!ch)
            return -ESRCH;
        if (ch->name[0])
            return -EBUSY;
        if (name_find(name))
            return -EEXIST;
        kstrlcpy(ch->name, name, sizeof(ch->name));
        return 0;
    case KNAMECTL_DETACH:
        ch = ipc_channel_of(p, (int)arg);
        if (!ch)
            return -ESRCH;
        if (strcmp(ch->name, name) != 0)
            return -ENOENT;
        ch->name[0] = '\0';
        return 0;
    case KNAMECTL_OPEN:
        if (arg != 0)
            return -EINVAL;
        ch = name_find(name);
        if (!ch)
            return -ENOENT;
        return ipc_connect_attach(p, ch->owner->pid, ch->chid);
    default:
        return -EINVAL;
    }
}
