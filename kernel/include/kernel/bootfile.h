// SPDX-License-Identifier: MIT
// Files the boot loader handed the kernel (docs/x86.md, "Host files"): on a board without
// semihosting, the host files a privileged program reads (a host-compiled D object for the
// board's dtrace) come as the loader's modules, Multiboot's on x86-pc (QEMU's -initrd, GRUB's
// `module`), each named by the first word of its command line, the host path. The kernel
// answers the semihosting open/read/seek/length/close calls (kernel/shost.c) from them,
// read-only, to a process with KAPP_F_SEMIHOST as semihosting's are. Their bytes stay where
// the loader put them, in memory nothing else uses (the arch checks that before adding one).
#ifndef KERNEL_BOOTFILE_H
#define KERNEL_BOOTFILE_H

#include <kernel/kernel.h>

struct proc;

#define BOOTFILE_MAX      8u      // files kept (more: refused at boot, said on the console)
#define BOOTFILE_NAME_MAX 127u    // a name's characters
#define BOOTFILE_OPENS    8u      // files open at once, all processes together
#define BOOTFILE_HANDLE0  120u    // handles BOOTFILE_HANDLE0.. (below shost's 128)

// At boot, before the scheduler: the file named [name, name + len) is [start, start + size).
// 0, or -1 when the table is full or the name too long (the caller says so).
int bootfile_add(const char *name, uint32_t len, uintptr_t start, uint32_t size);
// How many files the loader gave (0: a board without them, or none given).
unsigned bootfile_count(void);
// The semihosting calls on them, for process p; the caller checked p's blocks and buffers.
// open: a handle, or -1 (no such file, a mode that writes, no free slot).
int32_t bootfile_open(const struct proc *p, const volatile char *name, uint32_t len, uint32_t mode);
bool bootfile_is_handle(uint32_t h);
// read: the bytes NOT read, as semihosting's SYS_READ answers; -1 on a handle not p's.
int32_t bootfile_read(const struct proc *p, uint32_t h, volatile uint8_t *buf, uint32_t n);
int32_t bootfile_seek(const struct proc *p, uint32_t h, uint32_t pos);
int32_t bootfile_flen(const struct proc *p, uint32_t h);
int32_t bootfile_close(const struct proc *p, uint32_t h);

#endif
