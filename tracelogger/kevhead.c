// SPDX-License-Identifier: MIT
// The parts of the .kev file around the buffers (docs/kev-format.md): the ASCII header, the
// system page (board, memory, interrupt devices) and the trailer, built with trace/kev_file.c.
#include "tracelogger.h"
#include <kern.h>
#include <stdio.h>
#include <string.h>
#include <trace/kev_file.h>
#include <trace/kev_incident.h>
#include <trace/kev_ident.h>
#include <board_user.h>
#include <board_irqdev.h>
#include <utc_date.h>

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
static uint8_t head[BOARD_KEV_HEAD_BYTES] __attribute__((aligned(8)));
static uint8_t page[BOARD_KEV_HEAD_BYTES];
static size_t head_len, page_len;

int kev_write_head(const struct tl_opts *o)
{
    struct kev_out sp, h;
    uint32_t hz = ClockCyclesPerSec();
    uint32_t ncpu = 1;
    SysInfo(KSYSINFO_NCPUS, &ncpu);
    char date[29], boot[29];
    uint32_t now = utc_host_seconds();

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

    // SYS_VERSION: the kernel's build date, as D's `utsname.version gives it live.
    uint32_t built = 0;
    char version[12];
    SysInfo(KSYSINFO_BUILD_DATE, &built);
    kev_ident_date_text(built, version);
    utc_date_text(date, now);
    utc_date_text(boot, now - (uint32_t)(ClockCycles() / hz));
    kev_out_init(&h, head, sizeof(head), kev_host_is_big_endian());
    const struct kev_hdr_std std = {
        .hs_file_name = o->file, .hs_date = date, .hs_boot_date = boot,
        .hs_cycles_per_sec = hz, .hs_cpu_num = ncpu, .hs_sysname = KEV_IDENT_SYSNAME,
        .hs_nodename = BOARD_NAME_STR, .hs_sys_release = KEV_IDENT_RELEASE,
        .hs_sys_version = version,
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

// The header's buffer as the incident writers' scratch (incident.c), before any header is
// made: the logger's RAM holds no second one.
#ifndef BOARD_NO_INCIDENT
_Static_assert(BOARD_KEV_HEAD_BYTES >= KEV_INC_SCRATCH, "the header's buffer holds the scratch");
#endif
uint8_t *kev_head_scratch(void)
{
    return head;
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
