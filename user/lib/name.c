// SPDX-License-Identifier: MIT
// name_attach() and the rest of <sys/dispatch.h> on the kernel's channel names (NameCtl,
// kernel/kname.c): a name is a channel's, so attach is ChannelCreate then NameCtl, detach is
// ChannelDestroy (which drops the name), open is NameCtl (a coid), close is ConnectDetach.
// Each step is a traced kernel call. name_attach_t comes from a small static table, not the
// heap, so that a program that never calls name_attach pays nothing (its section is dropped).
#include <sys/dispatch.h>
#include <kern.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

static name_attach_t attaches[NAME_ATTACH_MAX];
static unsigned char attach_used[NAME_ATTACH_MAX];

name_attach_t *name_attach(dispatch_t *dpp, const char *path, unsigned flags)
{
    if (dpp != NULL || (flags & NAME_FLAG_ATTACH_GLOBAL)) {
        errno = ENOTSUP;
        return NULL;
    }
    if (flags != 0 || path == NULL) {
        errno = EINVAL;
        return NULL;
    }
    int slot = 0;
    while (slot < NAME_ATTACH_MAX && attach_used[slot])
        slot++;
    if (slot == NAME_ATTACH_MAX) {
        errno = ENOMEM;
        return NULL;
    }
    int chid = ChannelCreate(0);
    if (chid < 0)
        return NULL;                    // errno: ChannelCreate's (EAGAIN)
    if (NameCtl(KNAMECTL_ATTACH, chid, path) < 0) {
        int e = errno;
        ChannelDestroy(chid);
        errno = e;
        return NULL;
    }
    attach_used[slot] = 1;
    name_attach_t *a = &attaches[slot];
    *a = (name_attach_t){ .dpp = NULL, .chid = chid };
    return a;
}

int name_detach(name_attach_t *attach, unsigned flags)
{
    uintptr_t off = (uintptr_t)attach - (uintptr_t)attaches;
    size_t slot = off / sizeof(*attach);
    if (off % sizeof(*attach) || slot >= NAME_ATTACH_MAX || !attach_used[slot] ||
        (flags & ~(unsigned)NAME_FLAG_DETACH_SAVEDPP)) {
        errno = EINVAL;
        return -1;
    }
    int r = ChannelDestroy(attach->chid);   // the name goes with its channel
    attach_used[slot] = 0;
    return r < 0 ? -1 : 0;
}

int name_open(const char *name, int flags)
{
    if (flags & NAME_FLAG_ATTACH_GLOBAL) {
        errno = ENOTSUP;
        return -1;
    }
    if ((flags & ~NAME_FLAG_WAIT) != 0 || name == NULL) {
        errno = EINVAL;
        return -1;
    }
    if (!(flags & NAME_FLAG_WAIT))
        return NameCtl(KNAMECTL_OPEN, 0, name);
    // One kernel call, so that a TimerTimeout armed before name_open bounds the wait; it
    // ends it with 0, which no connection is.
    int coid = NameCtl(KNAMECTL_OPEN, KNAMECTL_OPEN_WAIT, name);
    if (coid == 0) {
        errno = ETIMEDOUT;
        return -1;
    }
    return coid;
}

int name_close(int coid)
{
    return ConnectDetach(coid);
}
