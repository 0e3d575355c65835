// SPDX-License-Identifier: MIT
// The incident record (docs/incidents.md): what a D trigger (freeze( ), panic( ),
// breakpoint( )) leaves in a RAM region no reset clears, for the next boot's tracelogger or a
// probe's kevdump to write out as a .kev (trace/kev_incident_kev.c) and an ELF core file
// (trace/kev_incident_core.c). The kernel writes it (kernel/kincident.c); every reader takes it
// through kev_incident_check, which refuses, with a sentence, a record that is not whole.
//
//   header (struct kev_inc_hdr, 48 bytes) | body: sections, each kev_inc_sec + payload padded to 8
//
// Written so that a record cut by a second failure is refused, never believed: the header is
// first marked WRITING, then the body is written, then the header's words and their CRC-32,
// and last the state word COMMIT (one aligned store). A cut leaves WRITING (or no magic); a
// damaged word fails the header's CRC, a damaged byte of the body the body's.
// All words little-endian (every board's and host's order), 4-byte aligned, no 64-bit member
// (x86-pc's i386 aligns those to 4, the others to 8): a struct read here is the same bytes
// on every side. Freestanding C.
#ifndef TRACE_KEV_INCIDENT_H
#define TRACE_KEV_INCIDENT_H

#include <stddef.h>
#include <stdint.h>

#define KEV_INC_MAGIC   "KEVINC1"       // 8 bytes, the NUL included
#define KEV_INC_VERSION 1u
// The state word, the header's last: what a reader may believe.
#define KEV_INC_WRITING 0x54495257u     // "WRIT": being written (a cut record keeps this)
#define KEV_INC_COMMIT  0x544d4d43u     // "CMMT": whole, not yet written out by a reader
#define KEV_INC_READ    0x44414552u     // "READ": whole, written out once; kept until a new one

struct kev_inc_hdr {
    char magic[8];
    uint32_t version;
    uint32_t hdr_bytes;     // sizeof(struct kev_inc_hdr)
    uint32_t seq;           // the incident's number (the region keeps counting across boots)
    uint32_t body_bytes;    // bytes after the header
    uint32_t body_crc;      // CRC-32 (ks_crc32) of the body
    uint32_t region_bytes;  // the region as its writer knew it (the body fits in it)
    uint32_t ptr_bytes;     // the writer's pointer size: 4, or 8 (AArch64)
    uint32_t hdr_crc;       // CRC-32 of the bytes above (magic to ptr_bytes)
    uint32_t state;         // KEV_INC_*: stored last
    uint32_t pad;
};
_Static_assert(sizeof(struct kev_inc_hdr) == 48, "incident header layout");
#define KEV_INC_HDR_CRC_BYTES 36u   // offsetof(hdr_crc)
_Static_assert(offsetof(struct kev_inc_hdr, hdr_crc) == KEV_INC_HDR_CRC_BYTES, "the CRC covers the words before it");

// A section: its type and payload bytes (the payload padded to 8 after them).
struct kev_inc_sec {
    uint32_t type, bytes;
};
enum kev_inc_sec_type {
    KEV_INC_TRIGGER = 1,    // struct kev_inc_trigger
    KEV_INC_RING = 2,       // struct kev_inc_ring, then each buffer: kev_inc_buf + its slots
    KEV_INC_PROC = 3,       // struct kev_inc_proc: one process
    KEV_INC_THREAD = 4,     // struct kev_inc_thread, its registers (u32 pairs), its stack bytes
    KEV_INC_DOBJ = 5,       // the D program as a .dobj file (d/dobj_file.h: header + object)
    KEV_INC_DBUF = 6,       // struct kev_inc_dcpu, then that CPU's unread records (d/dvm.h)
    KEV_INC_DAGG = 7,       // struct kev_inc_dcpu, then that CPU's aggregation entries (agg.c)
    KEV_INC_NTYPES
};

// What fired: a D clause's action, by the program's probe and clause.
enum kev_inc_action { KEV_INC_FREEZE = 0, KEV_INC_PANIC = 1, KEV_INC_BREAKPOINT = 2 };
struct kev_inc_trigger {
    uint32_t action;        // enum kev_inc_action
    uint32_t probe_id;      // the D probe's id (d/dprobes.h)
    uint32_t clause;        // the clause's number in the program, from 1, in source order
    uint32_t cpu;           // the CPU it fired on
    uint32_t who;           // the firing thread: pid << 16 | tid (0: a kernel thread)
    uint32_t ncpus;         // CPUs online
    uint32_t at_lo, at_hi;  // the trigger's time: the cycle counter
    uint32_t hz;            // the cycle counter's rate
    uint32_t dropped;       // events the freeze kept from the record: buffers it had no room for
    char probe[64];         // the probe's name, provider:module:function:name
    char board[32];         // BOARD_NAME
    char machine[16];       // QNX's name of the processor: "armle", "aarch64le", "x86"
};
_Static_assert(sizeof(struct kev_inc_trigger) == 152, "trigger layout");

#define KEV_INC_MAX_CPUS 8u
struct kev_inc_ring {
    uint32_t nbufs;         // buffers that follow, oldest first
    uint32_t ncpus;
    uint32_t policy;        // the ring's overrun policy (trace_ring.h TRACE_POLICY_*)
    uint32_t pad;
    uint32_t lost[KEV_INC_MAX_CPUS][2];     // each CPU's lost events (lo, hi): the ring's
                                            // dropped and overwritten, and those of buffers
                                            // the record holds no room for
};
struct kev_inc_buf {
    uint32_t seq, nslots;   // then nslots 16-byte slots, BUFFER to BUFFER_END
};

struct kev_inc_proc {
    uint32_t pid, ppid;
    char name[24];
};

#define KEV_INC_REGS_MAX 34u    // AArch64's x0-x30, sp, pc, pstate
#define KEV_INC_THR_TRIGGER 1u  // the thread the trigger fired in
#define KEV_INC_THR_FAULT   2u  // it faulted (proc:::fault)
struct kev_inc_thread {
    uint32_t pid, tid, state, prio, flags;
    uint32_t nregs;         // registers that follow (lo, hi each), in the core file's order:
                            // ARM r0-r15 and xPSR; AArch64 x0-x30, sp, pc, pstate; none: 0
    uint32_t stack_lo, stack_hi;   // the first stack byte kept (the thread's sp)
    uint32_t stack_bytes;   // bytes of its stack that follow the registers
    uint32_t signal;        // a faulting thread's signal (0: none)
    char name[16];
};
_Static_assert(sizeof(struct kev_inc_thread) == 56, "thread layout");

struct kev_inc_dcpu {
    uint32_t cpu, bytes;    // bytes that follow
    uint32_t drops_lo, drops_hi;   // the CPU's principal-buffer drops so far
};

// Where a reader outside the target (kevdump -I over a probe's GDB server) finds the region:
// a constant the kernel keeps in its image (kernel/kincident.c, symbol kev_incident_map),
// found by its address (nm) or by scanning for its magic.
// magic[8] | version | ptr_bytes | the region's start and end, ptr_bytes each (the target's
// pointers, as kev_flight's): a reader parses the two words first.
#define KEV_INC_MAP_MAGIC "KEVINCM"
#define KEV_INC_MAP_ADDRS 16u
struct kev_inc_map {
    char magic[8];
    uint32_t version;       // KEV_INC_VERSION
    uint32_t ptr_bytes;     // sizeof(void *) on the target
    uintptr_t start, end;   // the region (equal: this board has none)
};

// ---- reading a record ---------------------------------------------------------------------------
// A body's sections, as kev_incident_check found them (offsets into the body).
struct kev_inc_secref {
    uint32_t type, off, bytes;
};
#define KEV_INC_MAX_SECS 160u    // a host reader's table (a board's logger keeps fewer)
struct kev_inc_view {
    struct kev_inc_hdr hdr;
    struct kev_inc_trigger trig;    // the TRIGGER section's (every whole record has one)
    uint32_t nsecs;                 // sections found
    struct kev_inc_secref *sec;     // the caller's table of cap entries (NULL, cap 0: counted
    uint32_t cap;                   // only); a body with more is refused
};

// Reads n bytes of the body at off into dst: 0, or -1 when it cannot.
typedef int (*kev_inc_read_fn)(void *arg, uint32_t off, void *dst, uint32_t n);

// The header (hdr_bytes read from the region's start) and the body through rd, checked: 0 and
// *v filled; 1 when the region holds no record (no magic: a board after power-on); -1 refused,
// with a sentence in *why (a damaged word, a cut write, a body whose checksum or sections do
// not hold). region: the region's size, as this reader knows it.
int kev_incident_check(const void *hdr, uint32_t region, kev_inc_read_fn rd, void *arg,
                       struct kev_inc_view *v, const char **why);

// ---- writing a record out ----------------------------------------------------------------------
// The record's bytes go to a sink (0, or -1 when writing failed); the writers read the body
// through io->rd as kev_incident_check did and need io->buf (KEV_INC_SCRATCH bytes) and no
// other memory: the tracelogger runs them in its RAM slot at boot, kevdump on the host.
typedef int (*kev_inc_sink_fn)(void *arg, const void *p, size_t n);
#define KEV_INC_SCRATCH 2048u
struct kev_inc_io {
    kev_inc_read_fn rd;
    void *rd_arg;
    kev_inc_sink_fn wr;
    void *wr_arg;
    uint8_t *buf;       // KEV_INC_SCRATCH bytes, 4-byte aligned
};
struct kev_inc_sum {
    uint64_t events, lost;  // the .kev's events and the losses its trailer counts
    uint32_t nbufs, nthreads;
};
// The record as a .kev (docs/kev-format.md, docs/incidents.md): a header naming the trigger
// (TRACE_INCIDENT) and the file (name, date: NULL leaves the item out), a system page with the
// board, the processes and threads and the record's trigger and D sections (INCIDENT records,
// which dtrace -i reads), the frozen buffers oldest first and a trailer whose counts hold the
// ring's losses. 0, or -1 with a sentence in *why.
int kev_incident_kev(const struct kev_inc_view *v, const struct kev_inc_io *io, const char *name,
                     const char *date, struct kev_inc_sum *sum, const char **why);
// The record's threads as an ELF core file (ET_CORE: one NT_PRSTATUS note a thread, the
// trigger's thread first, each stack kept a PT_LOAD segment) that gdb opens with the programs'
// ELF files: 0, or -1 with a sentence in *why.
int kev_incident_core(const struct kev_inc_view *v, const struct kev_inc_io *io,
                      struct kev_inc_sum *sum, const char **why);

// The action's name: "freeze", "panic", "breakpoint".
const char *kev_incident_action_name(uint32_t action);

// A section's payload padded to 8.
static inline uint32_t kev_inc_pad8(uint32_t n)
{
    return (n + 7u) & ~7u;
}

#endif
