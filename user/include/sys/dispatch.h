// SPDX-License-Identifier: MIT
// QNX's name_attach(), name_detach(), name_open(), name_close(): programs that find each other
// by name, with QNX's signatures (user/lib/name.c). A server attaches a name to a channel of
// its own; a client opens the name and gets a connection to that channel for MsgSend. Names
// are local to the system (no network manager: NAME_FLAG_ATTACH_GLOBAL is ENOTSUP) and there
// is no dispatch layer, so the dispatch_t argument must be NULL (ENOTSUP otherwise).
// docs/applications.md, "Programs that find each other by name".
#ifndef SYS_DISPATCH_H
#define SYS_DISPATCH_H

#include <uapi/kapi.h>

typedef struct _dispatch dispatch_t;    // QNX's dispatch layer: none here

typedef struct _name_attach {
    dispatch_t *dpp;    // NULL
    int chid;           // the channel the name is attached to: MsgReceive on it
    int mntid;          // 0 (QNX's path-manager mount id)
    int zero[2];
} name_attach_t;

#define NAME_FLAG_ATTACH_GLOBAL   0x02  // QNX: a network-wide name (refused: ENOTSUP)
#define NAME_FLAG_DETACH_SAVEDPP  0x01  // QNX: keep the dispatch handle (nothing to keep here)
#define NAME_FLAG_WAIT            0x100 // ours, for name_open: wait for the name to be attached

// Creates a channel and gives it the name `path` (1 to KNAME_CHAN_MAX - 1 printable bytes, no
// '/' or space). NULL with errno: EINVAL (empty or bad name, unknown flag), ENAMETOOLONG,
// EEXIST (the name is taken), EAGAIN (the program holds its quota of names, 2 unless privileged,
// or no channel is left for it), ENOMEM (no name_attach_t left: NAME_ATTACH_MAX per program),
// ENOTSUP (dpp or a global name).
name_attach_t *name_attach(dispatch_t *dpp, const char *path, unsigned flags);
// Removes the name and destroys its channel: clients' sends fail with ESRCH, name_open ENOENT.
int name_detach(name_attach_t *attach, unsigned flags);
// A connection (coid) to the channel named `name`; -1 with errno ENOENT when no channel has the
// name, as QNX's. With NAME_FLAG_WAIT (ours: QNX programs retry) it waits, while no channel has
// the name, until a server attaches it: for ever, or as long as a TimerTimeout armed just
// before allows (then -1, ETIMEDOUT). docs/applications.md.
int name_open(const char *name, int flags);
// Closes a connection name_open gave (ConnectDetach).
int name_close(int coid);

#define NAME_ATTACH_MAX 8   // name_attach_t a program can hold (a privileged one may hold more names)

#endif
