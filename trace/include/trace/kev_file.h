// SPDX-License-Identifier: MIT
// Writer for the parts of a .kev file around the event buffers (docs/kev-format.md): the
// ASCII header, the system-page blob and the trailer with totals. Freestanding: everything is
// written into caller memory through struct kev_out, which keeps a sticky error (overflow or a
// bad argument) so callers check once at the end. No locking: one writer per kev_out.
#ifndef TRACE_KEV_FILE_H
#define TRACE_KEV_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <trace/kev.h>

struct kev_out {
    uint8_t *ko_buf;
    size_t ko_cap, ko_len;
    int ko_err;    // 0, or KEV_OUT_ENOSPC / KEV_OUT_EINVAL (sticky)
    int ko_big;    // words are written big-endian
    size_t ko_mark; // kev_sp_begin: where the system page starts
    size_t ko_blob; // kev_sp_begin: where our own record list (KYSP) starts
    const char *ko_why; // the first error's cause, a sentence to print; NULL when none
    char ko_key[32];    // the header item that error was found in ("" when none)
};

#define KEV_OUT_ENOSPC 1
#define KEV_OUT_EINVAL 2

// Syspage record types (a TLV list: word (type << 16 | payload bytes), payload padded to 4).
#define KEV_SP_END    0u
#define KEV_SP_BOARD  1u // cpu_hz, ncpu, name
#define KEV_SP_MEM    2u // base, size, name
#define KEV_SP_PROC   3u // pid, ppid, name
#define KEV_SP_THREAD 4u // pid, tid, state, priority, name
#define KEV_SP_IRQDEV 5u // line, major, instance, driver name: an interrupt line's device
#define KEV_SP_INCIDENT 6u // an incident record's section, or a piece of one: its type, its
                           // bytes, this piece's offset, then the piece (trace/kev_incident.h)
#define KEV_SP_PIECE_MAX 32768u // the most bytes of a section one INCIDENT record carries

// Trailer flags.
#define KEV_TRL_FILLED      1u // tracing stopped because every buffer was full (fill policy)
#define KEV_TRL_RING        2u // ring (flight recorder) capture: buffers saved at stop
#define KEV_TRL_LOGGER_LOSS 4u // the logger failed to store some buffers (counted as lost)
#define KEV_TRL_HOST_LOSS   8u // the live stream's host did not take some buffers: dropped
                               // whole, counted as lost (trace/kev_stream.h, LOSS frames)

struct kev_cpu_totals {
    uint64_t events; // events recorded in the file for this CPU (CONTROL events excluded)
    uint64_t lost;   // events lost on this CPU, whether or not a DROPPED event says so
};

void kev_out_init(struct kev_out *o, void *buf, size_t cap, int big_endian);
void kev_out_bytes(struct kev_out *o, const void *p, size_t n);
void kev_out_u32(struct kev_out *o, uint32_t v); // in the writer's byte order
// Native-order slots (as the ring holds them) converted to the writer's byte order.
void kev_out_slots(struct kev_out *o, const struct kev_slot *s, size_t n);
int kev_host_is_big_endian(void);

// ASCII header: kev_hdr_standard, then any writer's own items, then kev_hdr_end. A key is the
// part after TRACE_ (A-Z, 0-9, _); a value holds no "TRACE_", no '\n', and fits QNX's 99-byte
// window with its key (docs/kev-format.md): an item that breaks a rule sets KEV_OUT_EINVAL,
// ko_why and ko_key.
//
// The standard items, written in this order by kev_hdr_standard after the magic. A NULL
// string leaves its item out (kevdump knows no boot date, node or release).
struct kev_hdr_std {
    const char *hs_file_name;   // FILE_NAME: the file's path; its end kept after "..." when long
    const char *hs_date;        // DATE: when the file was written
                                // then VER_MAJOR, VER_MINOR, the byte-order key, ENCODING
    const char *hs_boot_date;   // BOOT_DATE
    uint64_t hs_cycles_per_sec; // CYCLES_PER_SEC
    uint32_t hs_cpu_num;        // CPU_NUM
    const char *hs_sysname;     // SYSNAME
    const char *hs_nodename;    // NODENAME
    const char *hs_sys_release; // SYS_RELEASE
    const char *hs_sys_version; // SYS_VERSION
    const char *hs_machine;     // MACHINE
    uint64_t hs_syspage_len;    // SYSPAGE_LEN: kev_sp_end's result
};
void kev_hdr_standard(struct kev_out *o, const struct kev_hdr_std *s);
void kev_hdr_item(struct kev_out *o, const char *key, const char *value);
void kev_hdr_item_u(struct kev_out *o, const char *key, uint64_t value);
// Why kev_hdr_item would refuse the item (NULL: it would not), for a writer that checks the
// items its command line gives (tracelogger -A) before it opens anything.
const char *kev_hdr_item_refused(const char *key, const char *value);
void kev_hdr_end(struct kev_out *o);

// System page (docs/kev-format.md section 2): QNX's own system page first, with the facts
// QNX's traceparser prints (processor, CPUs, cycles per second, boot time, names), then our
// record list ("KYSP": board, memory map, processes, threads) right after QNX's total_size.
// kev_sp_end patches the lengths; its result is TRACE_SYSPAGE_LEN.
#define KEV_SP_QNX_X86     0u // QNX's SYSPAGE_X86
#define KEV_SP_QNX_ARM     4u // SYSPAGE_ARM
#define KEV_SP_QNX_AARCH64 7u // SYSPAGE_AARCH64 (QNX 7; older QNX readers print Unknown(7))
struct kev_sp_machine {
    unsigned qnx_type;       // KEV_SP_QNX_*
    uint32_t ncpu;
    uint64_t cycles_per_sec; // ClockCycles() rate
    uint32_t boot_time;      // UTC seconds at boot, 0 when the target does not know
    uint32_t cpu_mhz;        // core clock, 0 when unknown
    const char *cpu_name;    // "Cortex-M3"
    const char *machine;     // the board: QNX's _CS_MACHINE
    const char *arch;        // QNX's machine name, "armle", "x86", "aarch64le": _CS_ARCHITECTURE
};
void kev_sp_begin(struct kev_out *o, const struct kev_sp_machine *m);
void kev_sp_board(struct kev_out *o, const char *name, uint32_t cpu_hz, uint32_t ncpu);
void kev_sp_mem(struct kev_out *o, uint32_t base, uint32_t size, const char *name);
void kev_sp_proc(struct kev_out *o, uint32_t pid, uint32_t ppid, const char *name);
void kev_sp_thread(struct kev_out *o, uint32_t pid, uint32_t tid, uint32_t state,
                   uint32_t prio, const char *name);
// The device on interrupt line `line`: its driver's name and number (major) and which of the
// driver's devices it is (boards/<b>/board_irqdev.h; D's struct dev_info, d/ddevinfo.h).
void kev_sp_irqdev(struct kev_out *o, uint32_t line, uint32_t major, uint32_t instance,
                   const char *name);
size_t kev_sp_end(struct kev_out *o);
// The same for a page whose last `tail` bytes of records the caller writes itself after o's
// bytes (an incident's sections, too large for a buffer), the END record (one word 0) among
// them and last: the lengths count them; nothing more is written into o.
size_t kev_sp_end_tail(struct kev_out *o, size_t tail);

// The loss note (kev.h KEV_SYS_SLOG) after the last buffer: "N events lost ...", at time t32.
void kev_loss_note(struct kev_out *o, uint32_t t32, uint64_t lost);

// Trailer: totals per CPU, so that a reader can tell a complete file from a truncated one.
size_t kev_trailer_len(unsigned ncpu);
void kev_trailer(struct kev_out *o, uint32_t nbufs, uint32_t flags,
                 const struct kev_cpu_totals *cpu, unsigned ncpu);

#endif
