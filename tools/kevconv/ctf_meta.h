// SPDX-License-Identifier: MIT
// The CTF 1.8 trace layout kev2ctf writes: event class ids and the TSDL metadata text.
// ctf_meta.c writes the metadata; kev2ctf.c writes stream packets in exactly this layout, so
// the two files change together. Every integer is byte-aligned (align = 8), so the stream
// writer never pads; multi-byte values are little-endian.
#ifndef TOOLS_CTF_META_H
#define TOOLS_CTF_META_H

#include <stdint.h>
#include <stdio.h>
#include <trace/kev_events.h>

// Event class ids. Kernel calls: entry CTF_ID_SYSCALL_ENTRY + n, exit CTF_ID_SYSCALL_EXIT + n.
enum ctf_id {
    CTF_ID_SCHED_SWITCH = 0,
    CTF_ID_SCHED_WAKING,
    CTF_ID_SCHED_PROCESS_FORK,
    CTF_ID_SCHED_PROCESS_EXIT,
    CTF_ID_STATEDUMP_START,
    CTF_ID_STATEDUMP_END,
    CTF_ID_STATEDUMP_PROCESS_STATE,
    CTF_ID_IRQ_HANDLER_ENTRY,
    CTF_ID_IRQ_HANDLER_EXIT,
    CTF_ID_KEV_IRQ_HANDLER_ENTRY,
    CTF_ID_KEV_IRQ_HANDLER_EXIT,
    CTF_ID_KEV_THREAD_STATE,
    CTF_ID_KEV_PROCESS_CREATE,
    CTF_ID_KEV_PROCESS_DESTROY,
    CTF_ID_KEV_THREAD_NAME,
    CTF_ID_KEV_TIMER,
    CTF_ID_KEV_USER,
    CTF_ID_KEV_UNKNOWN,
    CTF_ID_SCHED_PROCESS_FREE,
    CTF_ID_KEV_FAULT,
    CTF_ID_KEV_STACK,
    CTF_ID_SCHED_PI_SETPRIO,         // PRIO_CHANGE, as LTTng's priority-change event
    CTF_ID_KEV_SYNC_WAIT,
    CTF_ID_KEV_IMAGE,
    CTF_ID_SCHED_PROCESS_EXEC,
    CTF_ID_SCHED_MIGRATE_TASK,
    CTF_ID_SYSCALL_ENTRY_BROADCAST,  // CondBroadcast (QNX's CondSignal number, `all` set)
    CTF_ID_SYSCALL_EXIT_BROADCAST,
    CTF_ID_KEV_COMM = 32,            // + COMM event number (KEV_COMM_NEVENTS of them)
    CTF_ID_SYSCALL_ENTRY = 64,       // + call number (< KEV_KC_MAX)
    CTF_ID_SYSCALL_EXIT = 64 + 128,  // + call number
    CTF_ID_TABLE = 64 + 256,         // + the event table's row (kev_event_row): the events
                                     // above does not name, each a kev_<name> class whose
                                     // fields are the row's (ctf_table_fields)
    CTF_ID_USDT = 1024,              // + a USDT probe's class (ctf_usdt_class)
};

struct kev_reader;
// The CTF type of each of a table row's fields (ctf_meta.c), used by the metadata and the
// stream writer alike: CTF_T_U64, CTF_T_S64, CTF_T_HEX (uint64), CTF_T_STR (string),
// CTF_T_SEQ (uint32 length, then uint64 values).
enum ctf_ftype { CTF_T_U64, CTF_T_S64, CTF_T_HEX, CTF_T_STR, CTF_T_SEQ };
enum ctf_ftype ctf_field_type(unsigned kind);
// A kernel call's entry or exit class: the fields the decoder names for that call's events
// in the capture's layouts (this kernel's own or QNX's: trace/kev_fields.c), the union over a
// fast and a wide entry, or over an exit that succeeds (fast and wide) and one that fails, so
// that every event of the call fits its class; a field an event lacks is written 0. An exit
// class leaves out the decoder's "ret": the class begins with LTTng's ret (-errno on failure).
// The decoder's "more" (words past QNX's layout of a call, which QNX does not write) is no
// field of a class: kev2ctf counts such words' fields and says so.
struct ctf_kfield {
    char name[48];
    uint8_t kind;       // enum kev_fkind
};
struct ctf_kclass {
    unsigned n;
    struct ctf_kfield f[KEV_MAX_FIELDS];
};
// Set the classes from the capture's reader (its system page says whose layouts), once,
// before ctf_kcall_class or ctf_write_metadata.
void ctf_kcall_layouts(const struct kev_reader *r);
const struct ctf_kclass *ctf_kcall_class(unsigned call, int exit);

// A table row whose first field is a function's address (FUNC_ENTER, FUNC_EXIT: this_fn): its
// class ends with a string "function", the function named as kev2perfetto names its slices
// (syms_function: the name alone, "0x..." when no file names it).
int ctf_table_function(const struct kev_event_desc *d);

// A USDT probe's class (docs/usdt.md), made when a firing of it is first written: named
// provider:probe as LTTng-UST names a tracepoint, its fields the firing thread (tid, pid, vtid),
// the site (uint64_hex_t), the program and the function holding the site (strings), then each
// argument arg0.. as int64_t where the note says it is signed, else uint64_t. A probe is its
// name, program and argument types. Returns the class's index (its id CTF_ID_USDT + index), or
// -1 past CTF_USDT_MAX classes (the firing is then written as its table row, kev_usdt).
#define CTF_USDT_MAX 256u
struct syms_usdt;
int ctf_usdt_class(const struct syms_usdt *p);

#define CTF_COMM_LEN 16u // LTTng's char comm[16]
#define CTF_MAGIC 0xc1fc1fc1u

// Packet header + context, in bytes (see the metadata): magic, uuid[16], stream_id,
// stream_instance_id, then timestamp_begin, timestamp_end, content_size, packet_size,
// packet_seq_num, events_discarded, cpu_id.
#define CTF_OFF_TS_BEGIN   32u
#define CTF_OFF_TS_END     40u
#define CTF_OFF_CONTENT    48u
#define CTF_OFF_PACKET     56u
#define CTF_OFF_SEQ        64u
#define CTF_OFF_DISCARDED  72u
#define CTF_OFF_CPU        80u
#define CTF_PACKET_HDR     84u

struct ctf_clock {
    uint64_t freq;     // cycles per second
    int64_t offset_s;  // boot time, seconds since the epoch (0 when unknown)
};

struct ctf_env {
    const char *hostname, *sysname, *release, *version, *machine, *board;
};

// Write the metadata text for a trace with this uuid, clock and environment.
void ctf_write_metadata(FILE *f, const uint8_t uuid[16], const struct ctf_clock *clk,
                        const struct ctf_env *env);

#endif
