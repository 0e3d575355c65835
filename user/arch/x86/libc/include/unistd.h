// SPDX-License-Identifier: MIT
// File descriptors for the x86 runtime: 1 and 2 write to the console (DebugWrite); there are
// no others (open() fails), so read() and close() of anything else fail with EBADF.
#ifndef _X86RT_UNISTD_H
#define _X86RT_UNISTD_H

#include <stddef.h>

typedef int ssize_t;

ssize_t write(int fd, const void *buf, size_t n);
ssize_t read(int fd, void *buf, size_t n);
int close(int fd);

#endif
