// SPDX-License-Identifier: MIT
// tracelogger: the capture program. It allocates the kernel's ring of trace buffers, waits
// for the "buffer ready" synthetic interrupt, takes each full buffer, writes it out and gives
// it back; every flush interval it has the kernel close the buffers holding events, so that a
// live reader sees them; at the end it writes a trailer with the totals and says what was
// lost.
#ifndef TRACELOGGER_H
#define TRACELOGGER_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#define TL_MAX_ATTRS 8
#define TL_ATTR_KEY_MAX 31     // -A: the longest name
#define TL_FLUSH_MS 100         // the flush interval of a capture with a live stream
// The codes of the pulses on the logger's channel: the kernel's "buffers ready" (KIRQ_TRACE),
// and the one it sends itself to send at -x sendprio (stream.c).
#define TL_PULSE_BUFFER 1
#define TL_PULSE_SEND 2
#define TL_PULSE_UART 3     // the trace UART's transmit interrupt (stream.c), on a channel of its own

struct tl_opts {
    unsigned iterations;    // -n: buffers to capture, 0 = until stopped
    unsigned seconds;       // -s: capture duration, 0 = none
    unsigned kbufs;         // -k: kernel buffers
    bool ring, wide, passive, uart, verbose;
    int wire;               // -x wire=: TL_WIRE_COMPACT (0), _RAW, _CHECK
    int rtt;                // -x rtt=: 0 off, 1 block, 2 skip (tracelogger/rtt.c)
    int policy;             // -x bufpolicy=...
    unsigned delay_ms;      // -x delay=: pretend storage is slow (tests)
    int cpu;                // -x cpu=: run on this CPU alone (ThreadCtl), -1: any
    unsigned start_wait;    // -x startwait=: passive, seconds to wait for the start (10)
    uint32_t classes_off;   // -F: bit per kev.h class
    unsigned stack_hz;      // -p: stack samples a second (SYSTEM STACK events), 0 = none
    unsigned flush_ms;      // -x flush=: hand over a buffer holding events at least this
                            // often, or send a heartbeat (0 = off)
    bool flush_set;         // -x flush given; else TL_FLUSH_MS with a stream, off without
    unsigned send_prio;     // -x sendprio=: the stream's bytes go out at this priority (0: own)
    bool send_prio_set;     // -x sendprio given; else below the image's programs (main.c)
    int probe;              // -x probe[=keep]: 0 off, 1 a probe reads the buffers (probe.c),
                            // 2 it reads them and the logger saves them all at the end too
    unsigned probe_wait;    // -x probewait=: seconds to wait for the reader at the end (10)
    const char *file;       // -f
    const char *incident;   // -x incident=: an earlier boot's incident record goes to
                            // incident.kev and incident.core (incident.c)
    char attr_key[TL_MAX_ATTRS][TL_ATTR_KEY_MAX + 1];   // -A name=value: NAME in capitals
    const char *attr_value[TL_MAX_ATTRS];
    unsigned nattr;
};

// Parses argv (argv[0] is the program name). Returns 0, or 2 after printing a usage message.
int tl_parse_args(int argc, char **argv, struct tl_opts *o);
// The command line: from the debugger (semihosting) when there is one, else `fallback`.
int tl_get_args(char *buf, size_t size, char **argv, int max, const char *fallback);

// A kernel buffer as the logger hands it to the output: its CPU, sequence number, events
// and the times of its first and last slots (the cycle counter).
struct tl_buf {
    unsigned cpu;
    uint32_t seq;
    uint64_t events, t_first, t_last;
};

// An incident record an earlier boot left (incident.c, docs/incidents.md): written to the
// host as o->incident's .kev and .core and marked read, or kept (no host files), and said.
void tl_incident(const struct tl_opts *o);
uint8_t *kev_head_scratch(void);    // (kevhead.c: KEV_INC_SCRATCH bytes, free before the header)

// Output: the file (semihosting) and/or the live stream; both get the same bytes.
int out_open(const struct tl_opts *o);
int out_write(const void *p, size_t n);
// One kernel buffer: 0 stored, 1 dropped whole because the stream's host did not take it
// (counted in a LOSS frame), -1 storing it failed.
struct kev_slot;
int out_buffer(const struct kev_slot *s, unsigned nslots, const struct tl_buf *b);
int out_close(void);
uint64_t out_bytes(void);
// Where the trace went, for the closing report: the file's name, or the UART.
const char *out_where(const struct tl_opts *o);

// The live stream (stream.c): frames on the trace UART and/or the RTT up-channel.
// Opens the sinks (0). timing: count the cycles spent at each sink (stream_sink_cycles; two
// clock reads a frame); wire: kernel buffers in the compact wire encoding (wire.c), as their
// bytes (TL_WIRE_RAW), or both, the bytes in REF frames (TL_WIRE_CHECK).
#define TL_WIRE_COMPACT 0
#define TL_WIRE_RAW 1
#define TL_WIRE_CHECK 2
int stream_open(bool on_uart, bool on_rtt, bool timing, int wire);
// The send priority: each buffer's stream (its CRC, the UART's bytes, the RTT copy) is sent at
// prio (0: the logger's own), through a pulse of that priority to the logger's own channel
// (chid, coid: main.c's), and the logger returns to own (its priority) after it. The UART's
// transmit interrupt is attached to the same channel (TL_PULSE_UART): -1 when it cannot be
// (said).
int stream_send_below(int chid, int coid, unsigned prio, unsigned own);
bool stream_on(void);
void stream_poll(void);                        // reads the host's XON/XOFF bytes
// Before a buffer of n bytes: 0 when the stream takes it, else why not (KS_LOSS_*).
unsigned stream_refuses(size_t n);
void stream_drop(const struct tl_buf *b, unsigned why);     // counts it for a LOSS frame
// Why buffers are dropped while the UART takes nothing: the host's XOFF (KS_LOSS_HOST_STOP),
// else a transport that stalled (KS_LOSS_HOST_STALL).
unsigned stream_stall_reason(void);
// DATA frames (below: a kernel buffer's, sent at the send priority); -1 when RTT skipped one.
int stream_data(const uint8_t *p, size_t n, bool below);
bool stream_catch_up(void);                    // sends the LOSS frames owed; true if any
void stream_heartbeat(uint64_t time, uint32_t interval_ms, uint32_t buffers);
void stream_end(void);                         // the LOSS frames owed, then END
// Cycles spent sending stream frames to the UART (false) or the RTT channel (true), when timed.
uint64_t stream_sink_cycles(bool of_rtt);
// Times the UART was full and the logger waited; *by_irq: of them, ended by its interrupt.
uint64_t stream_uart_waits(uint64_t *by_irq);

// A pulse the logger received on its channel: the UART's is answered (its line unmasked).
void stream_pulse(int code);
// The kernel's "buffers ready" pulse received while a buffer is being sent: the ready buffers
// are taken ahead (main.c), to be saved next; stalled (the UART takes nothing), the oldest
// held are dropped whole past the few it holds.
void tl_take_ahead(bool stalled);
// The flush interval's next tick (ClockTime; 0: none), and its work when it came round while
// the stream waits (the buffers holding events closed and taken ahead).
uint64_t tl_flush_due(void);
void tl_flush_ahead(void);

// The compact wire encoding's state (wire.c, trace/kev_wire.h): the encoder with the event
// table's encodings, and the buffer a frame's payload is encoded into (KS_MAX_PAYLOAD bytes).
// wire_open: 0, or -1 on a board built without it (TL_WIRE_COMPACT 0).
int wire_open(void);
struct kw_encoder *wire_encoder(void);
uint8_t *wire_buffer(void);

// The RTT transport (rtt.c): stream frames in up-channel 0 of an RTT control block.
int rtt_open(bool block);
// One whole frame, in its three pieces (header, payload, CRC); -1 when skipped (counted).
int rtt_write(const uint8_t *head, const void *payload, size_t len, const uint8_t *tail);
// Skip mode, before a buffer of `whole` framed bytes, the first frame `first`: true when the
// ring lacks room for it and the probe has stopped reading (the buffer is then dropped
// whole). Block mode: false.
bool rtt_refuses(size_t first, size_t whole);
void rtt_close(void);                          // waits for the probe to read the rest
uint64_t rtt_lost_bytes(void);
uint64_t rtt_lost_frames(void);

// The .kev header and system page; the trailer.
int kev_write_head(const struct tl_opts *o);
// The bytes kev_write_head wrote last: the header, the system page (kept until the trailer).
void kev_head_bytes(const uint8_t **head, size_t *head_len, const uint8_t **page,
                    size_t *page_len);
struct kev_cpu_totals;
// ncpu entries: per CPU, events written and events lost (kernel and logger); t32 the loss
// note's time.
int kev_write_trailer(uint32_t nbufs, uint32_t flags, const struct kev_cpu_totals *cpu,
                      unsigned ncpu, uint64_t lost, uint32_t t32);

// The probe path (probe.c): the capture published for a reader outside the target, which
// takes the buffers itself; the logger sleeps while tracing runs.
int probe_publish(const struct tl_opts *o);
// After the stop: tells the reader (the stop time, the trailer's flags) and waits up to
// o->probe_wait seconds for it to have read everything. 0, or -1 when it did not.
int probe_finish(const struct tl_opts *o, uint64_t stop_time, uint32_t trl_flags);
// What the kernel did for the reader (its flushes, their time), said.
void probe_report(void);

#endif
