// SPDX-License-Identifier: MIT
// The parts of the .kev file around the buffers (docs/kev-format.md): the ASCII header, the
// system page (board, memory, interrupt devices) and the trailer, built with trace/kev_file.c.
#include "tracelogger.h"
#include <kern.h>
#include <stdio.h>
#include <string.h>
#include <trace/kev_file.h>
#include <trace/kev_ident.h>
#include <board_user.h>
#include <board_irqdev.h>

// A board says what QNX would call its processor (board_user.h); these serve one that does not.
#ifndef BOARD_QNX_SYSPAGE_TYPE
#define BOARD_QNX_SYSPAGE_TYPE KEV_SP_QNX_ARM
#endif
#ifndef BOARD_CPU_STR
#define BOARD_CPU_STR BOARD_ARCH_STR
#endif
#ifndef BOARD_CPU_MHZ
#define BOARD_CPU_MHZ 0
#endif

// The header's text (~450 bytes and the -A attributes) and the system page (~600 bytes for
// the demo's seven programs); a board with little RAM per program sets smaller ones (a header
// that does not fit is refused with a message).
#ifndef BOARD_KEV_HEAD_BYTES
#define BOARD_KEV_HEAD_BYTES 2048
#endif
static uint8_t head[BOARD_KEV_HEAD_BYTES];
static uint8_t page[BOARD_KEV_HEAD_BYTES];
static size_t head_len, page_len;

uintptr_t sys_semihost(uintptr_t op, uintptr_t param);
#define SYS_TIME 0x11

// The header's dates must not move the capture's events: QEMU's exact mode (-icount, sleep=off:
// docs/boards.md) times the guest by the instructions it runs, and the host's date is the one
// input of a boot that differs from run to run. So the date is read with one semihosting call
// (picolibc's time() may convert the host's tick count, in a time that depends on it) and
// written out by arithmetic with no loop or branch on its value: gmtime_r and strftime took a
// different number of instructions for each date, and every later event moved by a few cycles.

// Seconds since 1970 on the host; 0 without one.
static uint32_t host_time(void)
{
    intptr_t t = (intptr_t)sys_semihost(SYS_TIME, 0);
    return t > 0 ? (uint32_t)t : 0u;
}

static void two_digits(char *p, uint32_t v)
{
    p[0] = (char)('0' + v / 10u);
    p[1] = (char)('0' + v % 10u);
}

// t as "Www Mmm dd hh:mm:ss UTC yyyy" (the form of strftime's "%a %b %d %H:%M:%S UTC %Y"),
// 28 characters and a NUL in buf. Days to a civil date by the era arithmetic of proleptic
// Gregorian calendars (400-year eras of 146097 days, years from March), branch-free: the
// month's correction and the year's are computed from comparisons as 0/1 by division.
static void date_text(char buf[29], uint32_t t)
{
    static const char wday[] = "SunMonTueWedThuFriSat";
    static const char mon[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    uint32_t days = t / 86400u, secs = t % 86400u;
    uint32_t z = days + 719468u;                       // days since 0000-03-01
    uint32_t era = z / 146097u, doe = z - era * 146097u;
    uint32_t yoe = (doe - doe / 1460u + doe / 36524u - doe / 146096u) / 365u;
    uint32_t doy = doe - (365u * yoe + yoe / 4u - yoe / 100u);
    uint32_t mp = (5u * doy + 2u) / 153u;              // 0 = March .. 11 = February
    uint32_t d = doy - (153u * mp + 2u) / 5u + 1u;
    uint32_t jan_feb = (mp + 6u) / 16u;                // 1 for mp 10, 11
    uint32_t m = mp + 3u - 12u * jan_feb;              // 1 .. 12
    uint32_t y = yoe + era * 400u + jan_feb;
    uint32_t wd = (days + 4u) % 7u;                    // 1970-01-01 was a Thursday
    memcpy(buf, "Www Mmm dd hh:mm:ss UTC yyyy", 29);
    memcpy(buf, wday + 3u * wd, 3);
    memcpy(buf + 4, mon + 3u * (m - 1u), 3);
    two_digits(buf + 8, d);
    two_digits(buf + 11, secs / 3600u);
    two_digits(buf + 14, secs / 60u % 60u);
    two_digits(buf + 17, secs % 60u);
    two_digits(buf + 24, y / 100u % 100u);
    two_digits(buf + 26, y % 100u);
}

int kev_write_head(const struct tl_opts *o)
{
    struct kev_out sp, h;
    uint32_t hz = ClockCyclesPerSec();
    uint32_t ncpu = 1;
    SysInfo(KSYSINFO_NCPUS, &ncpu);
    char date[29], boot[29];
    uint32_t now = host_time();

    // The system page first: the header gives its length.
    kev_out_init(&sp, page, sizeof(page), kev_host_is_big_endian());
    const struct kev_sp_machine m = {
        BOARD_QNX_SYSPAGE_TYPE, ncpu, hz, now - (uint32_t)(ClockCycles() / hz),
        BOARD_CPU_MHZ, BOARD_CPU_STR, BOARD_NAME_STR, BOARD_ARCH_STR,
    };
    kev_sp_begin(&sp, &m);
    kev_sp_board(&sp, BOARD_NAME_STR, hz, ncpu);
#define SP_MEM(base, size, name) kev_sp_mem(&sp, base, size, name);
    BOARD_MEMORY_MAP(SP_MEM)
#undef SP_MEM
    // The devices on the interrupt lines, which D names at the interrupt probes over the
    // capture as the kernel names them live (d/ddevinfo.h)
#define SP_IRQDEV(line, name, major, instance) kev_sp_irqdev(&sp, line, major, instance, name);
    BOARD_IRQ_DEVICES(SP_IRQDEV)
#undef SP_IRQDEV
    // The process and thread tables when the capture starts (the trace's own snapshot
    // follows in the first buffer, unless tracing was started without it).
    uint32_t nproc = 0, nthread = 0;
    SysInfo(KSYSINFO_NPROC, &nproc);
    SysInfo(KSYSINFO_NTHREAD, &nthread);
    for (unsigned i = 0; i < nproc; i++) {
        struct kproc_info pi;
        if (ProcInfo(i, &pi) == 0 && pi.state == 1)
            kev_sp_proc(&sp, (uint32_t)pi.pid, (uint32_t)pi.ppid, pi.name);
    }
    for (unsigned i = 0; i < nthread; i++) {
        struct kthread_info ti;
        if (ThreadInfo(i, &ti) == 0)
            kev_sp_thread(&sp, (uint32_t)ti.pid, (uint32_t)ti.tid, (uint32_t)ti.state,
                          (uint32_t)ti.priority, ti.name);
    }
    size_t splen = kev_sp_end(&sp);

    date_text(date, now);
    date_text(boot, now - (uint32_t)(ClockCycles() / hz));
    kev_out_init(&h, head, sizeof(head), kev_host_is_big_endian());
    const struct kev_hdr_std std = {
        .hs_file_name = o->file, .hs_date = date, .hs_boot_date = boot,
        .hs_cycles_per_sec = hz, .hs_cpu_num = ncpu, .hs_sysname = KEV_IDENT_SYSNAME,
        .hs_nodename = BOARD_NAME_STR, .hs_sys_release = KEV_IDENT_RELEASE,
        .hs_sys_version = KEV_IDENT_VERSION,
        .hs_machine = BOARD_ARCH_STR, .hs_syspage_len = splen,
    };
    kev_hdr_standard(&h, &std);
    for (unsigned i = 0; i < o->nattr; i++)     // (checked by tl_parse_args)
        kev_hdr_item(&h, o->attr_key[i], o->attr_value[i]);
    kev_hdr_end(&h);
    if (h.ko_err || sp.ko_err) {
        const struct kev_out *bad = h.ko_err ? &h : &sp;
        printf("tracelogger: the file's header is refused%s%s: %s (docs/kev-format.md)\n",
               bad->ko_key[0] ? " at TRACE_" : "", bad->ko_key, bad->ko_why);
        return -1;
    }
    head_len = h.ko_len;
    page_len = sp.ko_len;
    if (out_write(head, h.ko_len) || out_write(page, sp.ko_len))
        return -1;
    return 0;
}

void kev_head_bytes(const uint8_t **h, size_t *hl, const uint8_t **p, size_t *pl)
{
    *h = head;
    *hl = head_len;
    *p = page;
    *pl = page_len;
}

int kev_write_trailer(uint32_t nbufs, uint32_t flags, const struct kev_cpu_totals *cpu,
                      unsigned ncpu, uint64_t lost, uint32_t t32)
{
    struct kev_out t;
    // (The probe path's reader has the header's bytes from here: it has read them by now.)
    kev_out_init(&t, head, sizeof(head), kev_host_is_big_endian());
    if (lost) // so QNX's tools, which skip our DROPPED events, show the loss too
        kev_loss_note(&t, t32, lost);
    kev_trailer(&t, nbufs, flags, cpu, ncpu);
    return t.ko_err ? -1 : out_write(head, t.ko_len);
}
