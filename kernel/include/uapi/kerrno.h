// SPDX-License-Identifier: MIT
// Error numbers returned (negated) by kernel calls. The values are newlib's and picolibc's, so
// the user runtime can hand -result straight to errno. On a host build (unit tests) the host's
// own <errno.h> values win where they are already defined; the kernel only compares names.
#ifndef UAPI_KERRNO_H
#define UAPI_KERRNO_H

#ifndef EPERM
#define EPERM 1
#endif
#ifndef ENOENT
#define ENOENT 2
#endif
#ifndef ESRCH
#define ESRCH 3
#endif
#ifndef EINTR
#define EINTR 4
#endif
#ifndef EIO
#define EIO 5
#endif
#ifndef ECHILD
#define ECHILD 10
#endif
#ifndef EAGAIN
#define EAGAIN 11
#endif
#ifndef ENOMEM
#define ENOMEM 12
#endif
#ifndef EFAULT
#define EFAULT 14
#endif
#ifndef EBADF
#define EBADF 9
#endif
#ifndef EBUSY
#define EBUSY 16
#endif
#ifndef EEXIST
#define EEXIST 17
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ENOSPC
#define ENOSPC 28
#endif
#ifndef EDEADLK
#define EDEADLK 45
#endif
#ifndef ENAMETOOLONG
#define ENAMETOOLONG 91
#endif
#ifndef ENOSYS
#define ENOSYS 88
#endif
#ifndef ETIMEDOUT
#define ETIMEDOUT 116
#endif
#ifndef ECANCELED
#define ECANCELED 140
#endif
#ifndef ENOTSUP
#define ENOTSUP 134
#endif

#endif
