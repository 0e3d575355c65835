// SPDX-License-Identifier: MIT
// The system calls newlib expects, on this kernel: files and the console go through the
// kernel's checked semihosting proxy (the same path picolibc's semihost layer takes), the heap
// is the program's own slot between .bss and the stack, exit ends the process. Built only with
// LIBC=newlib (user/module.mk).
#include <kern.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>

enum { SH_OPEN = 0x01, SH_CLOSE = 0x02, SH_WRITE = 0x05, SH_READ = 0x06, SH_ISTTY = 0x09,
       SH_SEEK = 0x0a, SH_FLEN = 0x0c, SH_REMOVE = 0x0e };

#define MAX_FILES 16
static int handles[MAX_FILES] = { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
extern char __heap_start[], __heap_end[];

static int32_t sh(uint32_t op, void *param)
{
    return KCALL2(KC_Semihost, op, param);
}

static int sh_open(const char *name, int mode)
{
    uint32_t blk[3] = { (uint32_t)(uintptr_t)name, (uint32_t)mode, (uint32_t)strlen(name) };
    return sh(SH_OPEN, blk);
}

// The host handle behind a descriptor; the console ones are opened on first use.
static int handle(int fd)
{
    if (fd < 0 || fd >= MAX_FILES)
        return -1;
    if (handles[fd] < 0 && fd <= 2)
        handles[fd] = sh_open(":tt", fd == 0 ? 0 : fd == 1 ? 4 : 8);
    return handles[fd];
}

// fopen-style semihosting modes: r, r+, w, w+, a, a+; the odd numbers are binary.
static int mode_of(int flags)
{
    int acc = flags & O_ACCMODE;
    if (flags & O_APPEND)
        return acc == O_RDWR ? 11 : 9;
    if (flags & (O_TRUNC | O_CREAT))
        return acc == O_RDWR ? 7 : 5;
    return acc == O_RDWR ? 3 : 1;
}

int _open(const char *name, int flags, int mode);
int _open(const char *name, int flags, int mode)
{
    (void)mode;
    for (int fd = 3; fd < MAX_FILES; fd++) {
        if (handles[fd] >= 0)
            continue;
        int h = sh_open(name, mode_of(flags));
        if (h < 0) {
            errno = ENOENT;
            return -1;
        }
        handles[fd] = h;
        return fd;
    }
    errno = EMFILE;
    return -1;
}

int _close(int fd);
int _close(int fd)
{
    int h = handle(fd);
    if (h < 0) {
        errno = EBADF;
        return -1;
    }
    uint32_t blk[1] = { (uint32_t)h };
    handles[fd] = -1;
    return sh(SH_CLOSE, blk) == 0 ? 0 : (errno = EIO, -1);
}

// A write or read of len bytes at buf (SH_WRITE, SH_READ): the bytes moved, or -1 (errno).
static int sh_transfer(uint32_t op, int fd, uintptr_t buf, size_t len)
{
    int h = handle(fd);
    if (h < 0) {
        errno = EBADF;
        return -1;
    }
    uint32_t blk[3] = { (uint32_t)h, (uint32_t)buf, (uint32_t)len };
    int32_t left = sh(op, blk);             // bytes not moved
    if (left < 0 || (size_t)left > len) {
        errno = EIO;
        return -1;
    }
    return (int)(len - (size_t)left);
}

int _write(int fd, const void *buf, size_t len);
int _write(int fd, const void *buf, size_t len)
{
    return sh_transfer(SH_WRITE, fd, (uintptr_t)buf, len);
}

int _read(int fd, void *buf, size_t len);
int _read(int fd, void *buf, size_t len)
{
    return sh_transfer(SH_READ, fd, (uintptr_t)buf, len);
}

int _lseek(int fd, int off, int whence);
int _lseek(int fd, int off, int whence)
{
    int h = handle(fd);
    uint32_t blk[2] = { (uint32_t)h, 0 };
    if (h < 0) {
        errno = EBADF;
        return -1;
    }
    if (whence == SEEK_END)
        off += sh(SH_FLEN, blk);
    else if (whence == SEEK_CUR && off == 0)
        return 0;       // the position is not known to semihosting; good enough for stdio
    blk[1] = (uint32_t)off;
    return sh(SH_SEEK, blk) == 0 ? off : (errno = EINVAL, -1);
}

int _isatty(int fd);
int _isatty(int fd)
{
    uint32_t blk[1] = { (uint32_t)handle(fd) };
    return sh(SH_ISTTY, blk) == 1;
}

int _fstat(int fd, struct stat *st);
int _fstat(int fd, struct stat *st)
{
    memset(st, 0, sizeof(*st));
    st->st_mode = _isatty(fd) ? S_IFCHR : S_IFREG;
    return 0;
}

int _unlink(const char *name);
int _unlink(const char *name)
{
    uint32_t blk[2] = { (uint32_t)(uintptr_t)name, (uint32_t)strlen(name) };
    return sh(SH_REMOVE, blk) == 0 ? 0 : (errno = ENOENT, -1);
}

void *_sbrk(ptrdiff_t incr);
void *_sbrk(ptrdiff_t incr)
{
    static char *brk = __heap_start;
    if (incr > __heap_end - brk || incr < __heap_start - brk) {
        errno = ENOMEM;
        return (void *)-1;
    }
    char *old = brk;
    brk += incr;
    return old;
}

_Noreturn void _exit(int status);
_Noreturn void _exit(int status)
{
    ProcExit(status);
}

int _getpid(void);
int _getpid(void)
{
    return ProcSelf();
}

int _kill(int pid, int sig);
int _kill(int pid, int sig)
{
    if (pid == ProcSelf())
        ProcExit(128 + sig);
    errno = EPERM;
    return -1;
}

int _gettimeofday(struct timeval *tv, void *tz);
int _gettimeofday(struct timeval *tv, void *tz)
{
    (void)tz;
    uint64_t ns = ClockTime();
    tv->tv_sec = (time_t)(ns / 1000000000u);
    tv->tv_usec = (suseconds_t)(ns % 1000000000u / 1000u);
    return 0;
}

clock_t _times(struct tms *t);
clock_t _times(struct tms *t)
{
    memset(t, 0, sizeof(*t));
    return (clock_t)(ClockTime() / 1000000u);
}

// newlib keeps no thread-local block of ours: nothing to set up.
void libc_thread_init(void);
void libc_thread_init(void)
{
}

// A few programs call picolibc's sys_semihost() directly (tracelogger, tflood).
uintptr_t sys_semihost(uintptr_t op, uintptr_t param);
uintptr_t sys_semihost(uintptr_t op, uintptr_t param)
{
    return (uintptr_t)KCALL2(KC_Semihost, op, param);
}

// newlib's __libc_init_array calls _init (normally from crti.o, which -nostartfiles leaves out);
// constructors come from .init_array, so there is nothing to do here.
void _init(void);
void _init(void)
{
}

void _fini(void);
void _fini(void)
{
}
