// SPDX-License-Identifier: MIT
// The live stream: the file's bytes as frames (trace/kev_stream.h) on the trace UART (-u)
// and/or an RTT up-channel (-x rtt, rtt.c), and the frames that say what the file cannot:
// HEARTBEAT when a flush interval passed with nothing to send, LOSS for buffers the host did
// not take. The board never waits for a host that stopped reading (unless -x rtt=block):
//   - the host sent XOFF on the UART (a relay or reader whose buffer is filling), or
//   - the RTT probe has not read for its stall time (rtt.c),
// and the logger is at a kernel buffer's start: the buffer is dropped whole, from every sink
// (the file and the stream keep the same bytes), and counted for its CPU and reason; the
// LOSS frames go out before the next frame that does. Flow control is obeyed between
// buffers only: a buffer begun is finished (a UART always can: a host sends XOFF with a
// buffer's worth of room left, KS_XOFF_ROOM), so the stream never holds part of a buffer.
// The header and the trailer are never dropped by choice (an RTT probe stalled for a second
// skips them, counted: rtt.c). One thread (the logger's) calls all of this.
// Each frame is sent from where its bytes lie (the kernel buffer, no copy): one CRC-32 pass
// over them (table-driven, trace/kev_crc32.c) gives the frame's CRC, and the END frame's
// whole-file CRC follows from the frames' (ks_crc32_mult: the file's CRC so far and the
// frame's header CRC moved past the payload, xor the frame's CRC), with no second pass.
// The UART takes bytes while it has room (trace_uart_write, board_user.h); when it is full the
// logger waits for its transmit interrupt (TRACE_UART_TX_IRQ: a pulse on its channel) where
// the board has one, else sleeps a tick: it never polls a full transmitter. While it waits,
// the kernel's "buffers ready" pulse and the flush interval are answered: the buffers are
// taken ahead (main.c) and, past the few it holds, the oldest dropped whole (a LOSS frame,
// reason 2 or, after XOFF, 1), so that a host that takes nothing costs placed, counted
// losses and never the kernel's ring.
// A kernel buffer goes out in the compact wire encoding (trace/kev_wire.h, wire.c) unless -x
// wire=raw: KEY frames with the headers met since the last (the whole dictionary every
// KW_KEY_EVERY buffers, for a reader that joined late or lost one), then SLOTS frames, each
// encoded into one payload buffer and sent from there; the header, the trailer and the
// stream's facts stay DATA, HEARTBEAT and LOSS frames. The END frame then says its length
// alone (KS_END_LEN_ONLY): the board computes no CRC of the bytes it did not send.
// The sending runs at the send priority (-x sendprio=N; by default below the image's
// programs but the background ones, main.c), so that the programs' threads preempt it; buffers are taken at the
// logger's own. The logger changes its priority by a pulse of that priority to its own
// channel: a thread that receives a pulse runs at the pulse's priority until it next receives
// (kernel/ipc.c): down to N before a buffer's stream, back to its own after it (and down again
// after any pulse received while waiting for the UART, which come at its own).
#include "tracelogger.h"
#include <kern.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <trace/kev_stream.h>
#include <trace/kev_wire.h>

#include <board_user.h>     // the trace stream UART, mapped into this process

#define LOSS_REASONS 2u     // KS_LOSS_HOST_STOP, KS_LOSS_HOST_STALL
// The board's CPUs (KMAX_CPUS, from board.mk), as many as the kernel's counts report.
#define LOSS_CPUS (KMAX_CPUS < KTRACE_QUERY_CPUS ? KMAX_CPUS : KTRACE_QUERY_CPUS)
#define FLOW_BYTES_MAX 16u  // bytes read from the UART per look (a missing UART reads "ready")

static bool uart, rtt;
static bool compact;        // kernel buffers in the compact encoding (wire.c)
static bool wire_ref;       // ... each followed by its bytes in REF frames (-x wire=check)
static bool compact_sent;   // ... and one was: the END frame carries no file CRC
static unsigned key_due;    // buffers before the next whole KEY
static bool host_stopped;   // the last flow control byte was XOFF
static uint16_t seq;
static uint32_t file_crc;   // of the DATA payloads so far
static uint32_t op_full;    // ks_crc32_x8n(KS_MAX_PAYLOAD), once
static uint64_t sent;       // DATA bytes sent: the file's length so far
// Cycles the logger spent handing frames to each sink (the UART's register writes, the RTT
// copy and its waits for the probe): the rate each transport sustains (make bench).
static uint64_t uart_cycles, rtt_cycles;
static bool timed;          // -v: count them
static uint64_t uart_waits; // times the UART was full: the logger waited for it
static uint64_t uart_irqs;  // of them, ended by the transmit interrupt
static int below_chid, below_coid;  // the send priority: the logger's channel and connection
static unsigned below_prio;         // 0: sends at the logger's own priority
static unsigned own_prio;           // the logger's own, which it takes buffers at
static bool lowered;                // it runs at below_prio now
#ifdef TRACE_UART_TX_IRQ
static int tx_iid = -1;     // the UART's transmit interrupt, when attached (main channel)
#endif
// Per CPU and reason: what the next LOSS frame reports (owed while buffers is non-zero), and
// the running total it carries.
static struct ks_loss loss[LOSS_CPUS][LOSS_REASONS];

static void run_at(unsigned prio);

#define TX_WAIT_NS 100000000u   // a wait for the UART's interrupt looks again after 100 ms
#define TX_SLEEP_NS 1000000u    // a board without one: the sleep when the UART is full

// The UART full: wait for its transmit interrupt, or sleep a tick where it has none.
static void uart_wait(void)
{
    uart_waits++;
#ifdef TRACE_UART_TX_IRQ
    if (tx_iid >= 0) {
        // On the logger's channel: the UART's pulse, or the kernel's "buffers ready", whose
        // buffers are taken ahead (each pulse raises the logger to its priority: it goes
        // back to the send priority before it sends again).
        trace_uart_tx_irq(1);
        struct kpulse p;
        bool raised = false;            // a pulse received: the logger runs at its priority
        uint64_t until = ClockTime() + TX_WAIT_NS;
        while (trace_uart_tx_full()) {  // (else it drained before the enable: no interrupt)
            uint64_t now = ClockTime(), flush = tl_flush_due();
            if (now >= until)
                break;
            if (flush && flush <= now) {    // the flush interval runs on meanwhile
                tl_flush_ahead();
                continue;
            }
            TimerTimeout((flush && flush < until ? flush : until) - now);
            if (MsgReceive(below_chid, &p, sizeof(p), NULL) < 0)
                continue;
            raised = true;
            if (p.code == TL_PULSE_BUFFER) {
                tl_take_ahead(true);
            } else if (p.code == TL_PULSE_UART) {
                uart_irqs++;
                stream_pulse(p.code);
                break;
            }
        }
        trace_uart_tx_irq(0);
        if (lowered && raised)
            run_at(below_prio);
        return;
    }
#endif
    ThreadSleep(TX_SLEEP_NS);
}

static void uart_send(const uint8_t *p, size_t n)
{
    for (;;) {
        size_t k = trace_uart_write(p, n);
        if (k == n)
            return;
        p += k;
        n -= k;
        uart_wait();
    }
}

static void put_le(uint8_t *p, uint32_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

// Sends one frame to every stream sink, its payload from where it lies. Returns -1 when the
// RTT copy skipped it (counted).
static int send_frame_flags(unsigned type, unsigned flags, const void *payload, size_t len)
{
    uint8_t head[KS_HDR_BYTES], tail[KS_CRC_BYTES];
    head[0] = KS_MAGIC0;
    head[1] = KS_MAGIC1;
    head[2] = (uint8_t)type;
    head[3] = (uint8_t)flags;
    put_le(head + 4, seq++, 2);
    put_le(head + 6, (uint32_t)len, 2);
    uint32_t crc_head = ks_crc32(0, head + 2, KS_HDR_BYTES - 2);
    uint32_t crc = ks_crc32(crc_head, payload, len);
    put_le(tail, crc, KS_CRC_BYTES);
    if (type == KS_DATA) {  // the file's CRC: crc(file payload) from crc(head payload)
        uint32_t op = len == KS_MAX_PAYLOAD ? op_full : ks_crc32_x8n(len);
        file_crc = ks_crc32_mult(op, file_crc ^ crc_head) ^ crc;
    }
    int lost = 0;
    uint64_t t0 = timed ? ClockCycles() : 0;   // (a kernel call: -v alone pays for it)
    if (uart) {
        uart_send(head, sizeof(head));
        uart_send(payload, len);
        uart_send(tail, sizeof(tail));
    }
    uint64_t t1 = timed ? ClockCycles() : 0;
    if (rtt && rtt_write(head, payload, len, tail) < 0)
        lost = -1;
    if (timed) {
        uart_cycles += t1 - t0;
        rtt_cycles += ClockCycles() - t1;
    }
    return lost;
}

static int send_frame(unsigned type, const void *payload, size_t len)
{
    return send_frame_flags(type, 0, payload, len);
}

// The dictionary's codes from `from` on, in KEY frames (from 0: the whole of it).
static void send_keys(unsigned from)
{
    uint8_t *buf = wire_buffer();
    struct kw_encoder *e = wire_encoder();
    while (from < e->ncodes)
        send_frame(KS_KEY, buf, kw_key(e, &from, buf, KS_MAX_PAYLOAD));
    e->nkeyed = e->ncodes;
}

// A kernel buffer (n bytes of whole slots) in SLOTS frames, after the KEY frames it needs;
// -1 when the RTT copy skipped one.
static int send_compact(const uint8_t *p, size_t n)
{
    struct kw_encoder *e = wire_encoder();
    if (!key_due) {
        send_keys(0);
        key_due = KW_KEY_EVERY;
    } else if (e->ncodes > e->nkeyed) {
        send_keys(e->nkeyed);
    }
    key_due--;
    compact_sent = true;
    const struct kev_slot *s = (const struct kev_slot *)(uintptr_t)p;
    unsigned ns = (unsigned)(n / KEV_SLOT_BYTES), first = 0;
    uint32_t bseq = ns ? s[0].data[1] : 0;
    uint8_t *buf = wire_buffer();
    int lost = 0;
    while (first < ns) {
        size_t len;
        first += kw_encode(e, s, first, ns, bseq, buf, KS_MAX_PAYLOAD, &len);
        if (send_frame(KS_SLOTS, buf, len) < 0)
            lost = -1;
    }
    for (size_t off = 0; wire_ref && off < n; off += KS_MAX_PAYLOAD)
        send_frame(KS_REF, p + off, n - off < KS_MAX_PAYLOAD ? n - off : KS_MAX_PAYLOAD);
    return lost;
}

int stream_open(bool on_uart, bool on_rtt, bool timing, int wire)
{
    uart = on_uart;
    rtt = on_rtt;
    timed = timing;
    compact = wire != TL_WIRE_RAW && (uart || rtt) && wire_open() == 0;
    wire_ref = compact && wire == TL_WIRE_CHECK;
    op_full = ks_crc32_x8n(KS_MAX_PAYLOAD);
    if (!uart)
        return 0;
    trace_uart_init();
    return 0;
}

int stream_send_below(int chid, int coid, unsigned prio, unsigned own)
{
    below_chid = chid;
    below_coid = coid;
    below_prio = prio;
    own_prio = own;
#ifdef TRACE_UART_TX_IRQ
    if (uart) {
        tx_iid = InterruptAttachEvent(TRACE_UART_TX_IRQ, coid, TL_PULSE_UART);
        if (tx_iid < 0) {
            printf("tracelogger: cannot attach the trace UART's transmit interrupt (%d): %s\n",
                   TRACE_UART_TX_IRQ, strerror(errno));
            return -1;
        }
    }
#endif
    return 0;
}

// Runs the logger at prio from here on: it sends itself a pulse of that priority and receives
// it (a thread runs at the priority of the pulse it received until it next receives). Pulses
// queued ahead of its own are answered on the way: the kernel's "buffers ready" by taking the
// ready buffers ahead (closed at their mark; saved next), the UART's by unmasking its line.
static void run_at(unsigned prio)
{
    if (MsgSendPulse(below_coid, (int)prio, TL_PULSE_SEND, 0) < 0)
        return;
    struct kpulse p;
    do {
        if (MsgReceive(below_chid, &p, sizeof(p), NULL) < 0)
            return;
        stream_pulse(p.code);
        if (p.code == TL_PULSE_BUFFER)  // answered now: the buffer is closed at its mark
            tl_take_ahead(false);
    } while (p.code != TL_PULSE_SEND);
}

void stream_pulse(int code)
{
#ifdef TRACE_UART_TX_IRQ
    if (code == TL_PULSE_UART && tx_iid >= 0) {
        trace_uart_tx_irq(0);   // serviced (cleared), then the line unmasked
        InterruptUnmask(TRACE_UART_TX_IRQ, tx_iid);
    }
#else
    (void)code;
#endif
}

// Lowers the logger to the send priority for a buffer's stream.
static void send_below(void)
{
    if (below_prio && below_prio != own_prio) {
        run_at(below_prio);
        lowered = true;
    }
}

// Back to the logger's own priority once a buffer is sent, so that it takes (or drops, for a
// host that stopped) the next buffers there, as the kernel's 70% pulse wakes it to.
static void send_done(void)
{
    if (lowered && own_prio) {
        run_at(own_prio);
        lowered = false;
    }
}

bool stream_on(void)
{
    return uart || rtt;
}

void stream_poll(void)
{
    for (unsigned i = 0; uart && i < FLOW_BYTES_MAX; i++) {
        int c = trace_uart_getc();
        if (c < 0)
            break;
        if (c == KS_XOFF)
            host_stopped = true;
        else if (c == KS_XON)
            host_stopped = false;
    }
}

// The bytes of the LOSS frames owed, which go out before the next buffer.
static size_t losses_owed(void)
{
    size_t n = 0;
    for (unsigned c = 0; c < LOSS_CPUS; c++)
        for (unsigned r = 0; r < LOSS_REASONS; r++)
            if (loss[c][r].buffers)
                n += KS_HDR_BYTES + KS_LOSS_BYTES + KS_CRC_BYTES;
    return n;
}

unsigned stream_refuses(size_t n)
{
    if (!uart && !rtt)
        return 0;
    stream_poll();
    if (uart && host_stopped)
        return KS_LOSS_HOST_STOP;
    const size_t per_frame = KS_HDR_BYTES + KS_CRC_BYTES;
    size_t first = (n < KS_MAX_PAYLOAD ? n : KS_MAX_PAYLOAD) + per_frame;
    size_t whole = losses_owed() + n + (n + KS_MAX_PAYLOAD - 1u) / KS_MAX_PAYLOAD * per_frame;
    if (rtt && rtt_refuses(first, whole))
        return KS_LOSS_HOST_STALL;
    return 0;
}

unsigned stream_stall_reason(void)
{
    return uart && host_stopped ? KS_LOSS_HOST_STOP : KS_LOSS_HOST_STALL;
}

void stream_drop(const struct tl_buf *b, unsigned why)
{
    struct ks_loss *l = &loss[b->cpu % LOSS_CPUS][why == KS_LOSS_HOST_STALL];
    if (!l->buffers) {
        l->t_first = b->t_first;
        l->first_seq = b->seq;
        l->cpu = b->cpu;
        l->reason = why;
    }
    l->t_last = b->t_last;
    l->events += b->events;
    l->total += b->events;
    l->buffers++;
}

// The LOSS frames owed, before anything else is sent. Each record is emptied before its frame
// goes out: a full UART's wait takes buffers ahead and may drop one (stream_drop), which then
// opens the record again for the next frame instead of vanishing with this one.
static void send_losses(void)
{
    uint8_t payload[KS_LOSS_BYTES];
    for (unsigned c = 0; c < LOSS_CPUS; c++)
        for (unsigned r = 0; r < LOSS_REASONS; r++) {
            struct ks_loss *l = &loss[c][r];
            if (!l->buffers)
                continue;
            l->offset = sent;
            ks_loss_put(payload, l);
            l->events = 0;
            l->buffers = 0;
            send_frame(KS_LOSS, payload, sizeof(payload));
        }
}

int stream_data(const uint8_t *p, size_t n, bool below)
{
    if (!uart && !rtt)
        return 0;
    if (below)
        send_below();
    send_losses();
    int lost = 0;
    if (below && compact && n % KEV_SLOT_BYTES == 0) {
        lost = send_compact(p, n);
    } else {
        for (size_t off = 0; off < n; off += KS_MAX_PAYLOAD) {
            size_t len = n - off < KS_MAX_PAYLOAD ? n - off : KS_MAX_PAYLOAD;
            if (send_frame(KS_DATA, p + off, len) < 0)
                lost = -1;
        }
    }
    sent += n;
    send_done();
    return lost;
}

bool stream_catch_up(void)
{
    for (unsigned c = 0; c < LOSS_CPUS; c++)
        for (unsigned r = 0; r < LOSS_REASONS; r++)
            if (loss[c][r].buffers) {
                if (stream_refuses(KS_LOSS_BYTES))
                    return false;
                send_losses();
                return true;
            }
    return false;
}

void stream_heartbeat(uint64_t time, uint32_t interval_ms, uint32_t buffers)
{
    if ((!uart && !rtt) || stream_refuses(KS_HEARTBEAT_BYTES))
        return;
    const struct ks_heartbeat h = { .time = time, .offset = sent,
                                    .interval_ms = interval_ms, .buffers = buffers };
    uint8_t payload[KS_HEARTBEAT_BYTES];
    ks_heartbeat_put(payload, &h);
    send_frame(KS_HEARTBEAT, payload, sizeof(payload));
}

void stream_end(void)
{
    if (!uart && !rtt)
        return;
    send_losses();
    uint8_t end[8];
    for (int i = 0; i < 4; i++) {
        end[i] = (uint8_t)(sent >> (8 * i));
        end[4 + i] = (uint8_t)(file_crc >> (8 * i));
    }
    if (compact_sent)   // (the file's CRC is not known: its length alone)
        for (int i = 4; i < 8; i++)
            end[i] = 0;
    send_frame_flags(KS_END, compact_sent ? KS_END_LEN_ONLY : 0u, end, sizeof(end));
}

uint64_t stream_sink_cycles(bool of_rtt)
{
    return of_rtt ? rtt_cycles : uart_cycles;
}

uint64_t stream_uart_waits(uint64_t *by_irq)
{
    *by_irq = uart_irqs;
    return uart_waits;
}
