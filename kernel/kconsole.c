// SPDX-License-Identifier: MIT
// The console as processes reach it (docs/console.md): every byte a process writes to
// the console (DebugWrite, semihosting's WRITEC/WRITE0, a WRITE to ":tt", the board console
// without a host) comes through here, and leaves as whole lines of the form
//
//     <pid>/<name>: <the process's text>
//
// so that the console can be trusted:
//   - a line's source is the kernel's word: the prefix is written by the kernel, from the
//     process's pid and its program's name, and a process cannot start a line of its own
//     (its newline ends its line; its next text gets the prefix again). A kernel line starts
//     with "kernel: " and carries no "<pid>/" prefix, so no process can imitate it, nor
//     another process (the tracelogger's "no events lost" comes as "<pid>/tracelogger: ...");
//   - each process's partial line is kept apart (proc.con_line) until its newline, a full
//     buffer, another console write of the process in another form, or its end: lines of
//     processes writing at once are never glued;
//   - control characters cannot act on the terminal or hide text: CR, ESC (escape sequences,
//     clear-screen, terminal reset), NUL (which ended a semihosting WRITE0 line early) and
//     every other byte below 0x20 but tab, and DEL, are written as \r, \e, \0 or \xNN; so are
//     C1 controls (U+0080-U+009F as UTF-8, or a lone byte 0x80-0x9f: put_high).
// The process's own text stays intact after the prefix, so an unanchored search for it still
// matches; scripts/console.sh reads verdicts from the console by source.
// Several CPUs: the console's calls run on the shared side of the kernel lock
// (kernel/kentry_shared.h, shared_console_call), so two CPUs may write at once. One lock,
// con_lock, guards every process's partial line (proc.con_line, con_len) and the device the
// lines leave by; a leaf (klock.h, rank CON): taken with no other lock held, nothing taken
// under it. The exclusive side's callers (a process's end) take it too, uncontended. Before,
// every console call was exclusive: picolibc's printf makes a call a character, and each one
// kept the other CPUs out of the kernel.
#include <kernel/kconsole.h>
#include <kernel/proc.h>
#include <kernel/arch.h>
#include <kernel/board.h>
#include <kernel/smp.h>

static struct kspin con_lock;       // smp_spin_lock: while more than one CPU runs

#define SH_WRITE0 0x04

static void out(const char *s, size_t n)
{
    if (board_has_semihosting())
        arch_semihost(SH_WRITE0, (uint32_t)(uintptr_t)s);     // no NUL inside: escaped
    else
        kputs_raw(s, n);
}

// One line of p's, with its source (an empty line too: the prefix alone). The line buffer
// keeps room for the newline and the NUL (put()).
static void emit(struct proc *p)
{
    char pre[KNAME_MAX + 16];
    size_t n = (size_t)ksnprintf(pre, sizeof(pre), "%d/%s: ", (int)p->pid, p->name);
    out(pre, n < sizeof(pre) ? n : sizeof(pre) - 1);
    p->con_line[p->con_len++] = '\n';
    p->con_line[p->con_len] = 0;
    out(p->con_line, p->con_len);
    p->con_len = 0;
}

static void flush(struct proc *p)
{
    if (p->con_len)
        emit(p);
}

void kcon_flush(struct proc *p)
{
    smp_spin_lock(&con_lock, KLOCK_RANK_CON);
    flush(p);
    smp_spin_unlock(&con_lock, KLOCK_RANK_CON);
}

static void put(struct proc *p, const char *s, unsigned n)
{
    if (p->con_len + n > KCON_LINE - 2)     // room for the newline and the NUL
        flush(p);               // a bound: the line goes out whole so far, the rest follows
    for (unsigned i = 0; i < n; i++)
        p->con_line[p->con_len++] = s[i];
}

static const char hex[] = "0123456789abcdef";

static void put_hex(struct proc *p, unsigned char u)
{
    char e[4] = { '\\', 'x', hex[u >> 4], hex[u & 15] };
    put(p, e, 4);
}

// A byte 0x80-0x9f: a C1 control (CSI 0x9b, NEL 0x85...) when it follows 0xc2 (U+0080-U+009F
// in UTF-8, which terminals obey as controls) or when it is not inside a UTF-8 sequence (a
// lone byte, which 8-bit terminals obey): written escaped, \xc2\x9b or \x9b. Inside a longer
// sequence (after a lead byte 0xc3-0xf4 or a continuation byte) it is text and kept.
static void put_high(struct proc *p, unsigned char u)
{
    unsigned char prev = p->con_len ? (unsigned char)p->con_line[p->con_len - 1] : 0;
    if (prev == 0xc2) {
        p->con_len--;           // the lead byte goes out escaped with it
        put_hex(p, prev);
        put_hex(p, u);
    } else if (prev >= 0x80 && prev != 0xc0 && prev != 0xc1 && prev < 0xf5) {
        put(p, (const char *)&u, 1);
    } else {
        put_hex(p, u);
    }
}

static void putc_locked(struct proc *p, char c)
{
    unsigned char u = (unsigned char)c;
    if (u >= 0x80 && u <= 0x9f) {
        put_high(p, u);
    } else if (c == '\n') {
        emit(p);
    } else if (u >= 0x20 && u != 0x7f) {
        put(p, &c, 1);
    } else if (c == '\t') {
        put(p, &c, 1);
    } else if (c == '\r') {
        put(p, "\\r", 2);
    } else if (u == 0x1b) {
        put(p, "\\e", 2);
    } else if (u == 0) {
        put(p, "\\0", 2);
    } else {
        put_hex(p, u);
    }
}

void kcon_putc(struct proc *p, char c)
{
    smp_spin_lock(&con_lock, KLOCK_RANK_CON);
    putc_locked(p, c);
    smp_spin_unlock(&con_lock, KLOCK_RANK_CON);
}

void kcon_write(struct proc *p, uint32_t buf, uint32_t len)
{
    smp_spin_lock(&con_lock, KLOCK_RANK_CON);
    for (uint32_t i = 0; i < len; i++)
        putc_locked(p, *(const volatile char *)(uintptr_t)(buf + i));
    smp_spin_unlock(&con_lock, KLOCK_RANK_CON);
}
