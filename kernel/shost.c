// SPDX-License-Identifier: MIT
// Checked semihosting proxy (see shost.h). Operation numbers and parameter blocks are those
// of the Arm semihosting specification. Handles: the host's handles are small integers; a
// process may use only those it opened (bitmap in struct proc, handles 0..127).
#include <kernel/shost.h>
#include <kernel/kview.h>
#include <kernel/proc.h>
#include <kernel/arch.h>
#include <kernel/board.h>
#include <kernel/kconsole.h>
#include <kernel/bootfile.h>

enum {
    SH_OPEN = 0x01, SH_CLOSE = 0x02, SH_WRITEC = 0x03, SH_WRITE0 = 0x04, SH_WRITE = 0x05,
    SH_READ = 0x06, SH_ISERROR = 0x08, SH_ISTTY = 0x09, SH_SEEK = 0x0a, SH_FLEN = 0x0c,
    SH_REMOVE = 0x0e, SH_CLOCK = 0x10, SH_TIME = 0x11, SH_ERRNO = 0x13,
    SH_GET_CMDLINE = 0x15, SH_EXIT = 0x18, SH_EXIT_EXTENDED = 0x20, SH_ELAPSED = 0x30,
    SH_TICKFREQ = 0x31,
};

#define ADP_STOPPED_APPLICATION_EXIT 0x20026u
#define SH_MAX_HANDLE 128
#define SH_CONSOLE_HANDLE 0x7fff0001    // stands for ":tt": the kernel's console, host or not
                                        // (kconsole.c), never the host's own handle

static bool handle_owned(const struct proc *p, uint32_t h)
{
    return h < SH_MAX_HANDLE && (p->semihost_handles[h / 32] >> (h % 32)) & 1u;
}

static void handle_set(struct proc *p, uint32_t h, bool on)
{
    if (h >= SH_MAX_HANDLE)
        return;
    if (on)
        p->semihost_handles[h / 32] |= 1u << (h % 32);
    else
        p->semihost_handles[h / 32] &= ~(1u << (h % 32));
}

static const volatile uint32_t *block(const struct proc *p, uint32_t param, unsigned words)
{
    if (!proc_can_read(p, param, words * 4u) || (param & 3u))
        return NULL;
    return (const volatile uint32_t *)(uintptr_t)param;
}

// Console text, host or not: the trusted console (kernel/kconsole.c) writes it as lines
// that carry their source.
static void console_write(struct proc *p, uint32_t buf, uint32_t len)
{
    kcon_write(p, buf, len);
}

// SYS_GET_CMDLINE without a host: the board's boot command line (board_boot_cmdline) into
// the caller's buffer [buf, buf + size), with its NUL; the block's second word becomes its
// length. As QEMU answers: an empty line when the board has none, -1 only when it does not
// fit (so that a program tells a line too long for its buffer from no line: user/lib/kargs.c).
// A line the board could not keep whole fits no buffer (board_boot_cmdline_over): -1.
// The caller has checked that the block and the buffer are the process's to write.
static int32_t boot_cmdline(volatile uint32_t *blk, uint32_t buf, uint32_t size)
{
    if (board_boot_cmdline_over())
        return -1;
    const char *s = board_boot_cmdline();
    uint32_t n = 0;
    if (!s)
        s = "";
    while (s[n])
        n++;
    if (n + 1 > size)
        return -1;
    volatile char *d = (volatile char *)(uintptr_t)buf;
    for (uint32_t i = 0; i <= n; i++)
        d[i] = s[i];
    blk[1] = n;
    return 0;
}

static int32_t exit_with(struct proc *p, uint32_t reason, uint32_t code)
{
    // ADP_Stopped_ApplicationExit with a code is a normal exit; any other reason is abnormal.
    int32_t st = reason == ADP_STOPPED_APPLICATION_EXIT ? (int32_t)((code & 0xff) << 8)
                                                        : (int32_t)(((code & 0xff) << 8) | 6);
    proc_exit(p, st);
    return 0;
}

// Console characters are gathered per process and written a line at a time, with their
// source (kernel/kconsole.c), so lines of processes printing at once never interleave.
static void con_flush(struct proc *p)
{
    kcon_flush(p);
}

void shost_flush_console(struct proc *p)
{
    con_flush(p);
}

static int32_t con_putc(struct proc *p, char c)
{
    kcon_putc(p, c);
    return 0;
}

// Host file names (SYS_OPEN, SYS_REMOVE): ":tt" (the console) is open to every process;
// other names need KAPP_F_HOSTFS. With SEMIHOST_DIR set at build time (KSEMIHOST_ROOT), a
// name must be relative and free of ".." parts, and the host sees it under that directory.
// Returns 0 when `name`/`len` may be used, writing the host's name into out (NUL-terminated)
// and its length into *olen; -1 with p->shost_errno set when refused.
#define SH_NAME_MAX 256
// The host directory every name is under: make SEMIHOST_DIR=dir's, or empty for none.
#ifndef KSEMIHOST_ROOT
#define KSEMIHOST_ROOT ""
#endif
static const char host_root[] = KSEMIHOST_ROOT;
// The host's name of the file an open or a remove names, one buffer for both: semihosting
// calls run in exclusive kernel entries, one at a time (a buffer each held the same name
// twice over, 288 bytes that netduinoplus2's kernel RAM needs).
static char kname[SH_NAME_MAX + 32];
static int host_name(struct proc *p, uint32_t name, uint32_t len, char *out, uint32_t *olen)
{
    const volatile char *s = (const volatile char *)(uintptr_t)name;
    if (!(p->app->flags & KAPP_F_HOSTFS)) {
        p->shost_errno = 1; // EPERM
        return -1;
    }
    uint32_t n = 0;
    if (host_root[0]) {
        for (; host_root[n]; n++)
            out[n] = host_root[n];
        out[n++] = '/';
        bool start = true;
        for (uint32_t i = 0; i < len; i++) {
            bool dotdot = start && s[i] == '.' && i + 1 < len && s[i + 1] == '.' &&
                          (i + 2 == len || s[i + 2] == '/');
            if ((i == 0 && s[0] == '/') || dotdot || s[i] == '\\') {
                p->shost_errno = 13; // EACCES: outside the host directory
                return -1;
            }
            start = s[i] == '/';
        }
    }
    if (n + len + 1 > SH_NAME_MAX) {
        p->shost_errno = 36; // ENAMETOOLONG
        return -1;
    }
    for (uint32_t i = 0; i < len; i++)
        out[n + i] = s[i];
    out[n + len] = 0;
    *olen = n + len;
    return 0;
}

static bool is_console_name(uint32_t name, uint32_t len)
{
    const volatile char *s = (const volatile char *)(uintptr_t)name;
    return len == 3 && s[0] == ':' && s[1] == 't' && s[2] == 't';
}

// SYS_OPEN without a host: a file the boot loader handed the kernel (kernel/bootfile.h), read
// only, under the same permission as a host file's. A name that is none of them: -1, with
// ENOENT (or, when the loader gave no files at all, SH_ERRNO's ENOSYS: no files here).
static int32_t boot_open(struct proc *p, uint32_t name, uint32_t len, uint32_t mode)
{
    if (!(p->app->flags & KAPP_F_HOSTFS)) {
        p->shost_errno = 1; // EPERM
        return -1;
    }
    int32_t h = bootfile_open(p, (const volatile char *)(uintptr_t)name, len, mode);
    if (h < 0) {
        if (bootfile_count())
            p->shost_errno = 2; // ENOENT
        return -1;
    }
    handle_set(p, (uint32_t)h, true);
    return h;
}

// SYS_OPEN: the console's handle for ":tt", a boot file's without a host, else the host's
// file under its host name; a host handle past SH_MAX_HANDLE is closed again and refused.
static int32_t sh_open(struct proc *p, uint32_t param, bool host)
{
    const volatile uint32_t *b;
    if (!(b = block(p, param, 3)) || b[2] > 255 || !proc_can_read(p, b[0], b[2] + 1))
        return -1;
    if (is_console_name(b[0], b[2]))   // writes go through the trusted console
        return SH_CONSOLE_HANDLE;
    if (!host)
        return boot_open(p, b[0], b[2], b[1]);
    uint32_t kblk[3] = { (uint32_t)(uintptr_t)kname, b[1], 0 };
    if (host_name(p, b[0], b[2], kname, &kblk[2]) < 0)
        return -1;
    int32_t h = arch_semihost(SH_OPEN, (uint32_t)(uintptr_t)kblk);
    if (h >= 0 && (uint32_t)h >= SH_MAX_HANDLE) {
        uint32_t close_blk[1] = { (uint32_t)h };
        arch_semihost(SH_CLOSE, (uint32_t)(uintptr_t)close_blk);
        return -1;
    }
    if (h >= 0)
        handle_set(p, (uint32_t)h, true);
    return h;
}

// SYS_WRITE and SYS_READ (op) on the console, a boot file or a host file the process owns.
static int32_t sh_read_write(struct proc *p, uint32_t op, uint32_t param, bool host)
{
    const volatile uint32_t *b;
    if (!(b = block(p, param, 3)))
        return -1;
    if (op == SH_WRITE ? !proc_can_read(p, b[1], b[2]) : !proc_can_write(p, b[1], b[2]))
        return -1;
    if (b[0] == SH_CONSOLE_HANDLE) {
        if (op == SH_WRITE)
            console_write(p, b[1], b[2]);
        return op == SH_WRITE ? 0 : (int32_t)b[2];    // reads: nothing read
    }
    if (!handle_owned(p, b[0]))
        return -1;
    if (!host)      // the loader's files are read-only
        return op == SH_READ ? bootfile_read(p, b[0], (volatile uint8_t *)(uintptr_t)b[1], b[2])
                             : -1;
    if (op == SH_WRITE)
        con_flush(p);   // its console line so far first: a file may be the terminal too
    return arch_semihost(op, param);
}

// SYS_REMOVE: a host file only, by its host name.
static int32_t sh_remove(struct proc *p, uint32_t param, bool host)
{
    const volatile uint32_t *b;
    if (!(b = block(p, param, 2)) || b[1] > 255 || !proc_can_read(p, b[0], b[1] + 1))
        return -1;
    if (!host)
        return -1;
    uint32_t kblk[2] = { (uint32_t)(uintptr_t)kname, 0 };
    if (host_name(p, b[0], b[1], kname, &kblk[1]) < 0)
        return -1;
    return arch_semihost(SH_REMOVE, (uint32_t)(uintptr_t)kblk);
}

// SYS_WRITE0: console text, a string ending in the caller's memory; it continues the process's
// line (kconsole.c).
static int32_t sh_write0(struct proc *p, uint32_t param)
{
    uint32_t n = 0;
    while (proc_can_read(p, param + n, 1) && *(const volatile char *)(uintptr_t)(param + n))
        n++;
    if (!proc_can_read(p, param + n, 1))
        return -1;
    console_write(p, param, n);
    return 0;
}

// SYS_CLOSE: a handle the process owns (the console's stays open).
static int32_t sh_close(struct proc *p, uint32_t param, bool host)
{
    const volatile uint32_t *b;
    if (!(b = block(p, param, 1)))
        return -1;
    if (b[0] == SH_CONSOLE_HANDLE)
        return 0;
    if (!handle_owned(p, b[0]))
        return -1;
    handle_set(p, b[0], false);
    if (!host)
        return bootfile_close(p, b[0]);
    return arch_semihost(SH_CLOSE, param);
}

// SYS_ISTTY, SYS_SEEK and SYS_FLEN (op) on a handle: the console is the one terminal and has
// no position or length.
static int32_t sh_handle_op(struct proc *p, uint32_t op, uint32_t param, bool host)
{
    const volatile uint32_t *b;
    if (!(b = block(p, param, op == SH_SEEK ? 2 : 1)))
        return -1;
    if (b[0] == SH_CONSOLE_HANDLE)
        return op == SH_ISTTY ? 1 : -1;
    if (!handle_owned(p, b[0]))
        return -1;
    if (!host)
        return op == SH_SEEK ? bootfile_seek(p, b[0], b[1])
             : op == SH_FLEN ? bootfile_flen(p, b[0]) : 0;
    return arch_semihost(op, param);
}

// SYS_GET_CMDLINE: the host's command line, or without a host the boot loader's.
static int32_t sh_cmdline(struct proc *p, uint32_t param, bool host)
{
    const volatile uint32_t *b;
    if (!(b = block(p, param, 2)))
        return -1;
    uint32_t buf = b[0], size = b[1];
    if (!proc_can_write(p, buf, size) || !proc_can_write(p, param, 8))
        return -1;
    if (!host)
        return boot_cmdline((volatile uint32_t *)(uintptr_t)param, buf, size);
    return arch_semihost(SH_GET_CMDLINE, param);
}

// SYS_ERRNO: the proxy's own refusal, once; else the host's errno. Without a host every file
// operation failed for want of one: say so (ENOSYS), so that a program can tell "no host files
// here" from a host's refusal.
static int32_t sh_errno(struct proc *p, bool host)
{
    if (p->shost_errno) {
        int32_t e = p->shost_errno;
        p->shost_errno = 0;
        return e;
    }
    return host ? arch_semihost(SH_ERRNO, 0) : ENOSYS;
}

int32_t shost_call(struct proc *p, uint32_t op, uint32_t param)
{
    const volatile uint32_t *b;
    bool host = board_has_semihosting();

    switch (op) {
    case SH_WRITEC:
        if (!proc_can_read(p, param, 1))
            return -1;
        return con_putc(p, *(const volatile char *)(uintptr_t)param);
    case SH_WRITE0:
        return sh_write0(p, param);
    case SH_OPEN:
        return sh_open(p, param, host);
    case SH_CLOSE:
        return sh_close(p, param, host);
    case SH_WRITE:
    case SH_READ:
        return sh_read_write(p, op, param, host);
    case SH_ISTTY:
    case SH_SEEK:
    case SH_FLEN:
        return sh_handle_op(p, op, param, host);
    case SH_REMOVE:
        return sh_remove(p, param, host);
    case SH_GET_CMDLINE:
        return sh_cmdline(p, param, host);
    case SH_ELAPSED:
        if (!proc_can_write(p, param, 8))
            return -1;
        return host ? arch_semihost(op, param) : -1;
    case SH_ERRNO:
        return sh_errno(p, host);
    case SH_CLOCK:
    case SH_TIME:
    case SH_TICKFREQ:
    case SH_ISERROR:
        return host ? arch_semihost(op, 0) : -1;
    case SH_EXIT:
        // 32-bit semihosting passes the reason in the parameter itself.
        return exit_with(p, param, 0);
    case SH_EXIT_EXTENDED:
        if (!(b = block(p, param, 2)))
            return exit_with(p, 0, 0);
        return exit_with(p, b[0], b[1]);
    default:
        return -1;
    }
}

void shost_proc_gone(struct proc *p)
{
    con_flush(p); // what it printed last, even without a newline
    bool host = board_has_semihosting();
    for (uint32_t h = 0; h < SH_MAX_HANDLE; h++) {
        if (handle_owned(p, h)) {
            uint32_t blk[1] = { h };
            if (host)
                arch_semihost(SH_CLOSE, (uint32_t)(uintptr_t)blk);
            else
                bootfile_close(p, h);
            handle_set(p, h, false);
        }
    }
}
