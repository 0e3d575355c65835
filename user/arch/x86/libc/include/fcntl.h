// SPDX-License-Identifier: MIT
// File opening for the x86 runtime: there are no files on a PC (no semihosting), so open()
// fails with ENOSYS. The flags exist so that portable programs compile.
#ifndef _X86RT_FCNTL_H
#define _X86RT_FCNTL_H

#define O_RDONLY 0x0000
#define O_WRONLY 0x0001
#define O_RDWR   0x0002
#define O_APPEND 0x0008
#define O_CREAT  0x0200
#define O_TRUNC  0x0400

int open(const char *path, int flags, ...);

#endif
