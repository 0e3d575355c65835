// SPDX-License-Identifier: MIT
// The probe path's protocol under real concurrency (trace/kev_probe.h, "Hand-over"): writer
// threads, each one CPU of the ring (test/unit/trace_port_threads), fill the ring's buffers
// while a reader thread runs the host's reader (tools/common/kev_probe.c) over the same memory,
// never stopping them: it claims, copies, checks and acknowledges buffers through the host's
// words, as kevprobe does over QEMU's shared RAM. Every policy, the reader faster and slower
// than the writers. Built under ThreadSanitizer (trace/module.mk), which fails the run on any
// data race between the ring's code and the host's words. The reader's copies are a probe's
// reads from outside the CPUs: made by a function ThreadSanitizer does not watch (read_mem),
// and judged by what they hold instead. The truths: each writer's own count of what it wrote
// while the ring ran (in the fill policy, which stops the ring under the writers, the event a
// writer was in when it stopped is the one it cannot be sure of: read + lost must lie between
// its sure count and that plus its unsure ones), and its events' own numbers: every event the
// reader kept is in a buffer that starts with BUFFER and ends with its BUFFER_END count, each
// CPU's numbers only go up (no torn or mixed buffer kept, none twice), and read + lost (the
// ring's dropped and overwritten) == written. A slower reader must lose events (the ring's
// counts say where it did, in every policy but fill, whose loss is the stop); a buffer the
// ring reused while the reader copied it is seen from outside the reader (its sequence moved
// during the copy) and must be among the torn reads the reader counted, and every sequence
// the ring gave out is accounted for (read, or counted overwritten): a torn one looked at again.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace/trace_ring.h>
#include <kevhost/kev_probe.h>

_Thread_local unsigned trace_thread_cpu;
uint64_t trace_thread_clock;
unsigned trace_thread_notes, trace_thread_stops;

#define NCPU     2u
#define NBUFS    8u
#define NEVENTS  30000u     // per writer

static struct kev_slot mem[NBUFS * KEV_BUF_SLOTS];
static struct trace_ring ring;
static struct kev_probe_block blk __attribute__((aligned(16)));
static uint32_t acks[NBUFS];
static const char head[] = "TRACE HEADER (a stand-in)";
static unsigned slow;       // the reader's copies are slow (it falls behind the writers)
// Each writer's own count of its events: written while the ring was on for certain (its class
// active after the event), and those it is unsure of (active before, off after: the ring
// stopped during that event; at most one, as the ring stops once).
static uint64_t sure[NCPU], unsure[NCPU];
// Copies of a buffer whose sequence moved while the reader copied it, seen by read_mem.
static unsigned torn_seen;
// A run that must see a copy torn (no host words, the reader slower): the writers stop after
// TEAR_AFTER events each until the reader is inside its first copy of a buffer's slots, which
// then waits (TEAR_WAIT_US at most) for the ring to reuse that buffer under it. Without the
// hand-off the writers could finish before the first copy on a loaded host, tearing nothing.
#define TEAR_AFTER   2048u
#define TEAR_WAIT_US 5000000u
static int tear_wanted, tear_copying;

static void *writer(void *arg)
{
    unsigned cpu = (unsigned)(uintptr_t)arg;
    const uint32_t bit = 1u << KEV_C_PR_TH;
    trace_thread_cpu = cpu;
    sure[cpu] = unsure[cpu] = 0;
    for (uint32_t i = 0; i < NEVENTS; i++) {
        if (i == TEAR_AFTER && tear_wanted)
            while (!__atomic_load_n(&tear_copying, __ATOMIC_ACQUIRE))
                usleep(100);
        uint32_t before = __atomic_load_n(&ring.tr_active, __ATOMIC_RELAXED);
        trace_emit_simple(&ring, KEV_C_PR_TH, KEV_TH_READY, cpu, i);
        // (the hook's own load of the word lies between these two: it saw what they saw)
        uint32_t after = __atomic_load_n(&ring.tr_active, __ATOMIC_RELAXED);
        sure[cpu] += (after & bit) != 0;
        unsure[cpu] += (before & bit) && !(after & bit);
    }
    return NULL;
}

// The target's memory as a probe reads it: byte by byte, outside the CPUs' memory model.
__attribute__((no_sanitize("thread"), noinline))
static void read_bytes(void *dst, uint64_t addr, size_t n)
{
    const volatile uint8_t *s = (const volatile uint8_t *)(uintptr_t)addr;
    uint8_t *d = dst;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
}

// A full barrier ThreadSanitizer accepts (it models no fence): a locked add, on x86.
static unsigned barrier_word;
#define full_barrier() __atomic_fetch_add(&barrier_word, 0u, __ATOMIC_SEQ_CST)

// A buffer's sequence read from outside the reader, as read_bytes reads.
static uint32_t seq_of(unsigned idx)
{
    uint32_t s;
    read_bytes(&s, (uintptr_t)&ring.tr_buf[idx].tb_seq, sizeof(s));
    return s;
}

static int read_mem(void *ctx, uint64_t addr, void *buf, size_t n)
{
    (void)ctx;
    int slots = addr >= (uintptr_t)mem && addr < (uintptr_t)mem + sizeof(mem);
    unsigned idx = slots ? (unsigned)((addr - (uintptr_t)mem) / KEV_BUF_BYTES) : 0;
    full_barrier();
    uint32_t s0 = slots ? seq_of(idx) : 0;
    read_bytes(buf, addr, n);
    if (slots && tear_wanted && !tear_copying) {    // the first copy: the writers go on now
        __atomic_store_n(&tear_copying, 1, __ATOMIC_RELEASE);
        for (unsigned us = 0; us < TEAR_WAIT_US && seq_of(idx) == s0; us += 1000)
            usleep(1000);
    } else if (slow && n >= 64) {
        usleep(slots ? 1000 : 300);     // a slow probe: the ring moves on meanwhile
    }
    full_barrier();
    if (slots && seq_of(idx) != s0)
        torn_seen++;    // (the reader's thread alone counts it)
    return 0;
}

// The host writes only its words: acknowledgements, pb_flush_req, pb_host_done (4 bytes).
static int write_mem(void *ctx, uint64_t addr, const void *buf, size_t n)
{
    (void)ctx;
    uint32_t v;
    if (n != 4 || (addr & 3u))
        return -1;
    memcpy(&v, buf, 4);
    __atomic_store_n((uint32_t *)(uintptr_t)addr, v, __ATOMIC_SEQ_CST);
    return 0;
}

static const char *mem_error(void *ctx)
{
    (void)ctx;
    return "a write the host may not make";
}

// What ktrace_probe.c's publish does, over this ring.
static void publish(unsigned with_acks)
{
    memset(&blk, 0, sizeof(blk));
    memset(acks, 0, sizeof(acks));
    blk.pb_version = KEV_PROBE_VERSION;
    blk.pb_size = sizeof(blk);
    blk.pb_self = (uintptr_t)&blk;
    blk.pb_mem = (uintptr_t)mem;
    blk.pb_bufs = (uintptr_t)&ring.tr_buf[0];
    blk.pb_cpus = (uintptr_t)&ring.tr_cpu[0];
    blk.pb_next_seq = (uintptr_t)&ring.tr_next_seq;
    blk.pb_head = (uintptr_t)head;
    blk.pb_head_len = sizeof(head);
    blk.pb_page = (uintptr_t)head;
    blk.pb_acks = (uintptr_t)acks;
    blk.pb_nbufs = NBUFS;
    blk.pb_buf_bytes = KEV_BUF_BYTES;
    blk.pb_ncpus = NCPU;
    blk.pb_flags = with_acks ? 0u : KEV_PROBE_F_KEEP;
    blk.pb_buf_stride = sizeof(struct trace_buf);
    blk.pb_cpu_stride = sizeof(struct trace_cpu);
    blk.pb_off_seq = offsetof(struct trace_buf, tb_seq);
    blk.pb_off_state = offsetof(struct trace_buf, tb_state);
    blk.pb_off_cpu = offsetof(struct trace_buf, tb_cpu);
    blk.pb_off_nslots = offsetof(struct trace_buf, tb_nslots);
    blk.pb_off_lost = offsetof(struct trace_buf, tb_lost);
    blk.pb_off_dropped = offsetof(struct trace_cpu, tc_dropped);
    blk.pb_off_overwritten = offsetof(struct trace_cpu, tc_overwritten);
    blk.pb_gen = 1;
    blk.pb_check = kev_probe_check(&blk);
    memcpy(blk.pb_magic, KEV_PROBE_MAGIC, KEV_PROBE_MAGIC_LEN);
    if (with_acks)
        trace_ring_set_acks(&ring, acks);
    trace_ring_set_quiet(&ring, 1);
    __atomic_store_n(&blk.pb_state, KEV_PROBE_RUNNING, __ATOMIC_RELEASE);
}

static struct kev_probe rd;
static int rd_result;

static void *reader(void *arg)
{
    (void)arg;
    struct kev_mem m = { read_mem, write_mem, mem_error, NULL };
    struct kev_probe_where w = { .at = (uintptr_t)&blk };   // (no map: the threads' memory)
    if (kev_probe_find(&rd, &m, &w) < 0) {
        rd_result = -1;
        return NULL;
    }
    rd.p_out = tmpfile();
    while ((rd_result = kev_probe_poll(&rd, 0)) == 0)
        if (slow)
            usleep(1000);
    return NULL;
}

// The reader's file: its buffers whole, each CPU's numbers rising. Events read, or -1 (said).
static long long check_file(FILE *f, unsigned nbufs)
{
    static struct kev_slot s[KEV_BUF_SLOTS];
    long long events = 0;
    long long last[NCPU] = { -1, -1 };
    rewind(f);
    if (fseek(f, (long)sizeof(head), SEEK_SET) != 0)
        return -1;
    for (unsigned b = 0; b < nbufs; b++) {
        unsigned n = 0;
        do {
            if (fread(&s[n], sizeof(s[n]), 1, f) != 1) {
                printf("# buffer %u ends early\n", b);
                return -1;
            }
        } while (!(kev_hdr_class(s[n].header) == KEV_C_CONTROL &&
                   kev_hdr_event(s[n].header) == KEV_CTL_BUFFER_END) && ++n < KEV_BUF_SLOTS);
        if (n == KEV_BUF_SLOTS || kev_hdr_event(s[0].header) != KEV_CTL_BUFFER ||
            s[0].data[1] != s[n].data[1]) {
            printf("# buffer %u is not whole (its BUFFER and BUFFER_END differ)\n", b);
            return -1;
        }
        unsigned count = 0;
        for (unsigned k = 0; k < n; k++) {
            if (kev_hdr_class(s[k].header) != KEV_C_PR_TH)
                continue;
            unsigned cpu = s[k].data[1];
            if (cpu >= NCPU || (long long)s[k].data[2] <= last[cpu]) {
                printf("# buffer %u: CPU %u's event %u after %lld (torn or kept twice)\n", b,
                       cpu, s[k].data[2], last[cpu]);
                return -1;
            }
            last[cpu] = s[k].data[2];
            count++;
        }
        if (count != s[n].data[2]) {
            printf("# buffer %u holds %u events, its BUFFER_END says %u\n", b, count,
                   s[n].data[2]);
            return -1;
        }
        events += count;
    }
    return events;
}

static int run(unsigned policy, unsigned slow_reader, unsigned with_acks, const char *what,
               unsigned n)
{
    static const char *names[] = { "switch", "overwrite", "ring", "fill" };
    trace_ring_init(&ring, mem, sizeof(mem), NBUFS);
    trace_ring_set_policy(&ring, policy);
    trace_filter_class(&ring, KEV_C_PR_TH, 1);
    slow = slow_reader;
    torn_seen = 0;
    tear_wanted = slow_reader && !with_acks;
    tear_copying = 0;
    publish(with_acks);
    trace_ring_start(&ring);
    pthread_t w[NCPU], r;
    pthread_create(&r, NULL, reader, NULL);
    for (unsigned c = 0; c < NCPU; c++)
        pthread_create(&w[c], NULL, writer, (void *)(uintptr_t)c);
    for (unsigned c = 0; c < NCPU; c++)
        pthread_join(w[c], NULL);
    trace_ring_stop(&ring);
    __atomic_store_n(&blk.pb_state, KEV_PROBE_STOPPED, __ATOMIC_RELEASE);
    pthread_join(r, NULL);

    uint64_t written = 0, maybe = 0, lost = 0, recorded = 0;
    int one_unsure = 1;
    for (unsigned c = 0; c < NCPU; c++) {
        struct trace_counts k;
        trace_ring_counts(&ring, c, &k);
        written += sure[c];
        maybe += unsure[c];
        one_unsure &= unsure[c] <= (policy == TRACE_POLICY_FILL);
        lost += k.dropped + k.overwritten;
        recorded += k.recorded;
    }
    long long read = rd_result == 1 ? check_file(rd.p_out, (unsigned)rd.p_counts.buffers) : -1;
    // Every sequence the ring gave out: read, skipped as damaged, or counted overwritten.
    uint64_t seqs = rd.p_counts.buffers + rd.p_counts.damaged + rd.p_counts.overwritten;
    // (Without acknowledgements the kernel may overwrite a buffer after it was read, counting
    // it lost: what the logger keeping the buffers is for. Only whole copies count then.)
    int ok = rd_result == 1 && read >= 0 && (uint64_t)read == rd.p_counts.events && one_unsure &&
             (with_acks ? (uint64_t)read + lost >= written &&
                          (uint64_t)read + lost <= written + maybe && (uint64_t)read == recorded
                        : (uint64_t)read <= written + maybe) &&
             seqs == __atomic_load_n(&ring.tr_next_seq, __ATOMIC_RELAXED) &&
             rd.p_counts.torn >= torn_seen &&
             __atomic_load_n(&blk.pb_host_done, __ATOMIC_ACQUIRE) == 1;
    // The slower reader loses (every policy but fill, which stops instead), and without the
    // host's words the ring reuses buffers under its copies: torn reads happen, counted.
    if (slow_reader && policy != TRACE_POLICY_FILL && with_acks)
        ok &= lost > 0;
    if (slow_reader && !with_acks)
        ok &= torn_seen > 0;
    printf("%s %u - %s policy, %s: read %lld + lost %llu == written %llu (the writers' own, "
           "%llu unsure; %llu buffers, %llu overwritten before read, %llu torn reads retried, "
           "%u copies seen torn from outside; %llu of %u sequences accounted)\n",
           ok ? "ok" : "not ok", n, names[policy], what, read, (unsigned long long)lost,
           (unsigned long long)written, (unsigned long long)maybe,
           (unsigned long long)rd.p_counts.buffers, (unsigned long long)rd.p_counts.overwritten,
           (unsigned long long)rd.p_counts.torn, torn_seen, (unsigned long long)seqs,
           __atomic_load_n(&ring.tr_next_seq, __ATOMIC_RELAXED));
    if (rd_result != 1)
        printf("# the reader: %s\n", rd.p_err);
    fclose(rd.p_out);
    kev_probe_free(&rd);
    return !ok;
}

int main(void)
{
    unsigned n = 0;
    int bad = 0;
    printf("1..10\n");
    for (unsigned policy = TRACE_POLICY_SWITCH; policy <= TRACE_POLICY_FILL; policy++) {
        bad |= run(policy, 0, 1, "reader faster", ++n);
        bad |= run(policy, 1, 1, "reader slower", ++n);
    }
    // The logger keeps every buffer (no host words): a copy the ring reused meanwhile is
    // never kept.
    bad |= run(TRACE_POLICY_RING, 1, 0, "no acknowledgements, reader slower", ++n);
    bad |= run(TRACE_POLICY_OVERWRITE, 1, 0, "no acknowledgements, reader slower", ++n);
    return bad;
}
