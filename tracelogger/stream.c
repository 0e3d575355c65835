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
// -x sendprio=N: a buffer's stream work (two CRC-32s and a copy of each byte, the UART's
// register writes and waits, the RTT copy: docs/tracelogger.md "What streaming costs the
// board") runs at priority N, so that threads above N preempt it. The logger lowers itself by
// a pulse of priority N to its own channel: a thread that receives a pulse runs at the
// pulse's priority until it next receives (kernel/ipc.c), and main.c's loop, the next
// receive, returns it to its own, at which the kernel's "buffers ready" pulse wakes it.
#include "tracelogger.h"
#include <kern.h>
#include <trace/kev_stream.h>

#include <board_user.h>     // the trace stream UART, mapped into this process

#define LOSS_REASONS 2u     // KS_LOSS_HOST_STOP, KS_LOSS_HOST_STALL
// The board's CPUs (KMAX_CPUS, from board.mk), as many as the kernel's counts report.
#define LOSS_CPUS (KMAX_CPUS < KTRACE_QUERY_CPUS ? KMAX_CPUS : KTRACE_QUERY_CPUS)
#define FLOW_BYTES_MAX 16u  // bytes read from the UART per look (a missing UART reads "ready")

static bool uart, rtt;
static bool host_stopped;   // the last flow control byte was XOFF
static uint16_t seq;
static uint32_t file_crc;
static uint64_t sent;       // DATA bytes sent: the file's length so far
static uint8_t frame[KS_MAX_FRAME];
// Cycles the logger spent handing frames to each sink (the UART's register writes, the RTT
// copy and its waits for the probe): the rate each transport sustains (make bench).
static uint64_t uart_cycles, rtt_cycles;
static int below_chid, below_coid;  // -x sendprio: the logger's channel and its connection
static unsigned below_prio;         // 0: sends at the logger's own priority
// Per CPU and reason: what the next LOSS frame reports (owed while buffers is non-zero), and
// the running total it carries.
static struct ks_loss loss[LOSS_CPUS][LOSS_REASONS];

static void uart_send(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        trace_uart_putc(p[i]);
}

// Sends one frame to every stream sink. Returns -1 when the RTT copy skipped it (counted).
static int send_frame(unsigned type, const void *payload, size_t len)
{
    size_t flen = ks_frame(frame, type, seq++, payload, len);
    int lost = 0;
    uint64_t t0 = ClockCycles();
    if (uart)
        uart_send(frame, flen);
    uint64_t t1 = ClockCycles();
    if (rtt && rtt_write(frame, flen) < 0)
        lost = -1;
    uart_cycles += t1 - t0;
    rtt_cycles += ClockCycles() - t1;
    return lost;
}

void stream_open(bool on_uart, bool on_rtt)
{
    uart = on_uart;
    rtt = on_rtt;
    if (uart)
        trace_uart_init();
}

void stream_send_below(int chid, int coid, unsigned prio)
{
    below_chid = chid;
    below_coid = coid;
    below_prio = prio;
}

// Lowers the logger to -x sendprio until its next receive in main.c. Pulses queued ahead of
// its own (the kernel's "buffers ready", at the logger's priority) are taken on the way: the
// logger takes every ready buffer after this one anyway (main.c, drain).
static void send_below(void)
{
    if (!below_prio || MsgSendPulse(below_coid, (int)below_prio, TL_PULSE_SEND, 0) < 0)
        return;
    struct kpulse p;
    do {
        if (MsgReceive(below_chid, &p, sizeof(p), NULL) < 0)
            return;
    } while (p.code != TL_PULSE_SEND);
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

// The LOSS frames owed, before anything else is sent.
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
            send_frame(KS_LOSS, payload, sizeof(payload));
            l->events = 0;
            l->buffers = 0;
        }
}

int stream_data(const uint8_t *p, size_t n)
{
    if (!uart && !rtt)
        return 0;
    send_below();
    send_losses();
    int lost = 0;
    // Only the END frame carries the whole file's CRC: a file on the host needs none, and
    // on several CPUs the logger's time per buffer decides whether it keeps up.
    file_crc = ks_crc32(file_crc, p, n);
    for (size_t off = 0; off < n; off += KS_MAX_PAYLOAD) {
        size_t len = n - off < KS_MAX_PAYLOAD ? n - off : KS_MAX_PAYLOAD;
        if (send_frame(KS_DATA, p + off, len) < 0)
            lost = -1;
    }
    sent += n;
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
    send_frame(KS_END, end, sizeof(end));
}

uint64_t stream_sink_cycles(bool of_rtt)
{
    return of_rtt ? rtt_cycles : uart_cycles;
}
