// SPDX-License-Identifier: MIT
// The description of every trace event, read by every tool: for each event its class and
// number, name, fields (name, kind, where in the payload, meaning), its fast and wide layouts,
// the QNX encoding where QNX defines it, and the D probes its site fires. The rows are in
// trace/kev_events.c (one row an event, greppable by name), their layouts in
// trace/kev_rows.h (which the kernel's emit helpers expand too); the kernel-call layouts, QNX's,
// in trace/kev_kercall.c. kev_fields_decode() turns any event into named, typed fields from
// those rows, so a reader names an event and its fields without a copy of its layout.
// Pure data and lookups, freestanding (no libc): usable on target and host, no state.
#ifndef TRACE_KEV_EVENTS_H
#define TRACE_KEV_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <trace/kev.h>

struct kev_reader;
struct kev_event;

// What a field means (its kind) - a reader formats and links by it. Every kind but the
// last four is one integer value (up to 64 bits).
enum kev_fkind {
    KEV_K_U32,      // a count or number, decimal
    KEV_K_S32,      // a signed value (a call's result)
    KEV_K_HEX,      // flags, ids, keys: shown in hex
    KEV_K_PID,      // a process id
    KEV_K_TID,      // a thread id, 1-based within its process
    KEV_K_WHO,      // a thread as pid << 16 | tid
    KEV_K_PRIO,     // a thread priority
    KEV_K_ERRNO,    // an errno (the target's numbers, kev_errno_name)
    KEV_K_IRQ,      // an interrupt number (kev_int_pseudo_name for the non-lines)
    KEV_K_ADDR,     // a code or data address
    KEV_K_CYCLES,   // a cycle count (time)
    KEV_K_ENUM,     // a number with names (the field's names function)
    KEV_K_FLAG,     // 0 or 1
    KEV_K_STRING,   // text (NUL-terminated in the payload)
    KEV_K_WORDS,    // an array of 32-bit words
    KEV_K_ADDRS,    // an array of addresses (a stack's pcs)
    KEV_K_U64S,     // an array of 64-bit values (USDT arguments)
};
#define KEV_K_IS_ARRAY(k) ((k) == KEV_K_WORDS || (k) == KEV_K_ADDRS || (k) == KEV_K_U64S)

// Where a field is in the payload (words w[0..nw)).
enum kev_flayout {
    KEV_L_WORD,    // w[word] >> shift, `bits` wide (0: the whole word)
    KEV_L_HI_LO,   // a 64-bit value: w[word] high, w[word + 1] low
    KEV_L_LO_HI,   // a 64-bit value: w[word] low, w[word + 1] high (FUNC_EXIT's value)
    KEV_L_STRING,  // a NUL-terminated string from w[word] (KEV_W_NEXT: after the last field)
    KEV_L_REST,    // the words from w[word] to the end
    KEV_L_PCS,     // STACK's pcs: one word each, or two (high first) when field number
                   // `shift` (pc64) is set
    KEV_L_ARGS,    // USDT's arguments: a count of them (field number `shift`), low word first
    KEV_L_BYTES,   // IMAGE's build id: a length in bytes (field number `shift`), whole words
    KEV_L_USER,    // a USER event: its text when it is a string event, else its words
};
#define KEV_W_NEXT 0xffu // word: just after the words the fields before took

struct kev_field_desc {
    const char *name;   // as readers print it: "pid", "new_prio"
    uint8_t kind;       // enum kev_fkind
    uint8_t layout;     // enum kev_flayout
    uint8_t word;       // first payload word (or KEV_W_NEXT)
    uint8_t shift, bits;
    uint8_t wide;       // 1: present only in a wide-mode event (its payload is longer)
    const char *(*names)(unsigned v); // KEV_K_ENUM: the value's name, NULL when it has none
    const char *meaning;
};

// How an event's site feeds D (the row's D column).
enum kev_dsite {
    KEV_D_NONE,     // no D probe
    KEV_D_EMIT,     // the kernel's emit helper fires the row's dprobes with the event's values,
                    // at its stamp, in the D column's order (the helper or the order generated
                    // from the row, tools/emitgen; test_kev_emit holds the two equal); a
                    // probe of the row's own (d/dprobes.h DPROBE_ROW_BASE) is fired so too
    KEV_D_OWN,      // the site derives its probes itself: the states' sched probes, fbt,
                    // pid, USDT (docs/d-probes.md)
    KEV_D_LATER,    // the event's values feed a probe another event fires (SYNC_WAIT's
                    // lockstat at the call's return, SIGNAL's and STACK's at FAULT)
};

// One D probe an event's site fires, with its arguments: the D column in machine form (dtrace -i
// fires these over a capture; `probes` is the same in words). probe is provider:module:function:
// name, where "<FIELD>" is that field's value ("interrupt::irq<irq>:entry") and "<call>" the
// kernel call's name. args lists the arguments in order, space-separated; each is
//   FIELD      the field's value             FIELD.pid  a who field's process (who >> 16)
//   $ev        the event's number            $call      the kernel call's number
//   $words     the payload's words, one an argument (a call's arguments; fast mode holds two)
//   $result    a kernel call's result, -errno on failure
//   $user      a USER event's two words, or its payload's address (copyin) and size
//   ?NAME      a value the site knows and the event does not carry (a reader says so)
//   N          that number
// unless: space-separated conditions under which the site does not fire it: "FIELD=N", or
// "$snapshot" (an event of START's snapshot of the system). derived: 1 when the probe follows
// from the state a reader keeps over many events (the scheduler's, lockstat's), or from a
// program's own probe tables (fbt, pid, USDT), not from this event's fields alone; its args
// then say in words what they are. A row's list ends with a NULL probe.
struct kev_dprobe {
    const char *probe;
    const char *args;
    const char *unless;
    uint8_t derived;
};

// Which part of a kernel call a KER_CALL event is. QNX numbers the call n's entry n, its exit
// n + KEV_KC_MAX and its interrupted end n + 2 * KEV_KC_MAX (trace/kev.h); the table's three
// KER_CALL rows say so, each run with its part in `kcall`, and readers ask kev_kcall_part()
// (trace/kev_decode.h) rather than compare numbers.
enum kev_kcall_part {
    KEV_KCALL_NONE,   // not a kernel-call event, or a number past the three runs
    KEV_KCALL_ENTRY,  // the call is entered
    KEV_KCALL_EXIT,   // it returns to its thread
    KEV_KCALL_INTR,   // QNX's interrupted call (KER_INTR): it ends, as an exit does
};

// An event, or a run of events numbered lo..hi that share a layout (kernel calls, states, USER).
struct kev_event_desc {
    uint8_t cls;          // KEV_C_*
    uint16_t lo, hi;      // event numbers
    const char *name;     // "PRIO_CHANGE", "THRUNNING"; a run's common name ("KER_CALL", "USER")
    const char *when;     // what the event records, when it is written
    const struct kev_field_desc *fields;
    uint8_t nfields;
    uint8_t fast_words, wide_words; // payload words in each mode; 0: variable (combine)
    uint8_t kcall;        // enum kev_kcall_part: a kernel call's part (its fields come from
                          // the call's layout, trace/kev_kercall.c, not from `fields`), or 0
    const char *qnx;      // QNX's encoding ("_NTO_TRACE_SYSTEM / _NTO_TRACE_SYS_FUNC_ENTER"),
                          // NULL when the event is ours
    const char *probes;   // the D probes the site fires, with their arguments ("" when none)
    uint8_t dsite;        // enum kev_dsite: how the site fires them
    const struct kev_dprobe *dprobes; // the same, each probe and its arguments (NULL: none)
};

// The table (trace/kev_events.c), in class then number order.
extern const struct kev_event_desc kev_event_table[];
extern const unsigned kev_event_table_len;

// The row describing (cls, ev), or NULL. Rows added by kev_events_add() are looked up first.
const struct kev_event_desc *kev_event_describe(unsigned cls, unsigned ev);
// Every row, the table's then the added ones: i < kev_event_rows() (a stable index).
unsigned kev_event_rows(void);
const struct kev_event_desc *kev_event_row(unsigned i);
// Rows a program (a test) adds to the table; at most one set, kept by pointer.
void kev_events_add(const struct kev_event_desc *rows, unsigned n);
// The event's name: the row's, or for a kernel call "<Name>" of the call (kev_kcall_name,
// else QNX's); writes "<class>_<n>" into buf when no row describes it.
const char *kev_event_title(unsigned cls, unsigned ev, char *buf, size_t n);
// kev_event_title_of: the same for the row d already found (kev_event_describe), or NULL.
const char *kev_event_title_of(const struct kev_event_desc *d, unsigned cls, unsigned ev,
                               char *buf, size_t n);

// ---- the generic field decoder ----------------------------------------------------------------
#define KEV_MAX_FIELDS 40u

struct kev_field {
    const char *name;
    uint8_t kind;             // enum kev_fkind
    uint64_t v;               // an integer kind's value
    const char *str;          // KEV_K_STRING: the text (in the caller's kev_fields)
    const uint64_t *arr;      // an array kind: its values
    unsigned n;               // ... and their count
    const char *(*names)(unsigned v); // KEV_K_ENUM's names
    const char *meaning;
};

// Everything one event decodes to; big (keep it static or on the heap), reused per event.
struct kev_fields {
    const struct kev_event_desc *desc; // NULL: no row (then fields hold the raw words)
    const char *name;                  // the event's name (see kev_event_title)
    struct kev_field f[KEV_MAX_FIELDS];
    unsigned n;
    char namebuf[48];
    char text[2048];                   // the strings' bytes
    size_t ntext;
    uint64_t vals[2u * KEV_MAX_COMBINE_SLOTS]; // the arrays' values
    unsigned nvals;
};

// Decode e into named, typed fields from its row (a field the payload is too short for is
// left out: fast vs wide). An event no row describes gives one field "words" (its raw
// payload). Returns out->n. r is needed for strings (byte order); never fails.
unsigned kev_fields_decode(const struct kev_reader *r, const struct kev_event *e,
                           struct kev_fields *out);
// The field called name, or NULL.
const struct kev_field *kev_field_get(const struct kev_fields *fs, const char *name);
// The one-value field called name (not a string or an array): 1 and *v, or 0 when the decoded
// event has no such field (v untouched).
int kev_field_value(const struct kev_fields *fs, const char *name, uint64_t *v);
// The row's field called name for event (cls, ev), or NULL: a reader that reads a few fields of
// its events looks each up once, then reads it with kev_field_read (no decoding of the rest).
const struct kev_field_desc *kev_field_desc_get(unsigned cls, unsigned ev, const char *name);
// A one-value field (a word, bits of one, a 64-bit pair) of e: 1 and *v, or 0 when e's payload is
// too short for it (a fast event's wide field) or fd is NULL or not one value at a fixed word; a
// low-word-first pair of which only the low word is present reads as that word (the decoder's).
int kev_field_read(const struct kev_event *e, const struct kev_field_desc *fd, uint64_t *v);
// An array field of e at a fixed word (KEV_L_REST, KEV_L_PCS, KEV_L_ARGS; fd its row's, as
// kev_field_desc_get gives it): its values into out, at most max; their number (0 when fd is
// none of these). A reader that wants one array without decoding the rest (STACK's pcs).
unsigned kev_field_array(const struct kev_event *e, const struct kev_field_desc *fd, uint64_t *out,
                         unsigned max);
// A field of one word (KEV_L_WORD) out of a copy of the word that holds it, which a reader kept
// instead of the event (kevsql's pulse key: SND_PULSE's second word): its bits, or the whole
// word; 0 when fd is NULL or not a one-word field.
uint64_t kev_field_of_word(const struct kev_field_desc *fd, uint32_t w);
// The same for a KEV_L_WORD field fd (not NULL), inline: a reader's hot path (kx_fields.h).
static inline uint32_t kev_field_bits(const struct kev_field_desc *fd, uint32_t w)
{
    return fd->bits ? (w >> fd->shift) & ((fd->bits >= 32 ? 0u : 1u << fd->bits) - 1u) : w;
}
// A who value (KEV_K_WHO): the thread's process and its thread id, and the who of a pid and tid.
static inline uint32_t kev_who_pid(uint64_t who) { return (uint32_t)(who >> 16) & 0xffffu; }
static inline uint32_t kev_who_tid(uint64_t who) { return (uint32_t)who & 0xffffu; }
static inline uint32_t kev_who_of(uint32_t pid, uint32_t tid) { return pid << 16 | (tid & 0xffffu); }
// The kind's name as readers write it in schemas: "u32", "pid", "string", "addrs", ...
const char *kev_fkind_name(unsigned kind);
// 1 when the kind is signed (S32, ERRNO is not).
static inline int kev_fkind_signed(unsigned kind) { return kind == KEV_K_S32; }

#endif
