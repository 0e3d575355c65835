// SPDX-License-Identifier: MIT
// The probe block (trace/kev_probe.h): the kernel's description of its trace ring for a reader
// outside the target (QEMU's gdbstub, a debug probe's GDB server), which takes the buffers
// where they lie (docs/probe-path.md). The ring's owner publishes it
// (KTRACE_PROBE); the kernel fills the layout, makes the ring quiet (no notification, no
// logger wake-up per buffer) and writes the magic last; the kernel's tick serves the reader's
// flush requests. Nothing here runs per event.
// Everything a reader outside the target reads is in the probe area (section .probe: a board
// whose RAM only partly reaches the host, mps2-an385's PSRAM shared with QEMU's host, places it
// there, ldscripts/kernel.ld.S): the block, the host's acknowledgement words and a copy of the
// logger's header; the ring's table and its buffers are there too (ktrace_state.c, the pool).
// Locking: the control calls run under the kernel lock (ktrace_call); the reader writes
// pb_flush_req, pb_host_done and its acknowledgement words while the target runs: each is
// read here with one atomic load and believed only as far as it names what the kernel gave
// out (a flush request is any number; host_done must equal pb_gen; an acknowledgement must
// equal a buffer's sequence, trace_ring.c).
// On a core with a data cache a probe reads memory around it: everything here the reader reads
// is cleaned to memory once written (trace_port_publish; the ring cleans its own), and the
// reader's words are read after their lines are invalidated (trace_port_fetch).
#include <kernel/ktrace.h>
#include <kernel/ktrace_probe.h>
#include <kernel/kview.h>
#include <kernel/smp.h>
#include <uapi/ktrace.h>
#include <arch_cache.h>
#include <kernel/board.h>

struct kev_probe_block kev_probe_block __attribute__((aligned(16), used, section(".probe")));
// The host's words (trace/kev_probe.h, "Hand-over"): written by the host only.
static uint32_t kev_probe_acks[TRACE_MAX_BUFS] __attribute__((aligned(16), used, section(".probe")));
// The header and system page the logger published, copied where the reader can read them.
static uint8_t *head_copy;
// What the kernel did for the reader since the capture was published (KTRACE_PROBE_WORK): the
// flush requests its tick served and the board's cycles they took (one CPU's tick at a time),
// and the ring's count, when published, of the buffer starts flushes caused (each a flushed
// CPU's next event's buffer switch, which the flush's own time does not hold).
static struct ktrace_probe_work work;
static uint64_t reopen_cycles0;
// ... and the cleans for it, each CPU's (the port's ktrace_port_publish, where there is a
// cache), their cycles on the board's clock.
static struct { uint64_t cycles; uint32_t n; } TRACE_PER_CPU_LINE cleans[TRACE_MAX_CPUS];

void ktrace_port_publish(const void *p, size_t n)
{
    uint64_t t0 = board_cycles();
    arch_dcache_publish(p, n);
    unsigned cpu = cpu_id();
    cleans[cpu].cycles += board_cycles() - t0;
    cleans[cpu].n++;
}

// What the probe reads, cleaned out of this CPU's cache where there is one (the port's
// trace_port_publish, which calls the function above; this file calls it directly, so that the
// port's header and this file do not call each other).
static void clean_out(const void *p, size_t n)
{
    if (ARCH_DCACHE)
        ktrace_port_publish(p, n);
}

static void publish_block(void)
{
    clean_out(&kev_probe_block, sizeof(kev_probe_block));
}

// The magic, written last and in pieces so that its text is in no image (a scan of RAM or of
// the ELF file finds the one block that is live).
static void write_magic(struct kev_probe_block *b)
{
    static const char first[] = "KEV PROBE";     // ... " BLOCK" in a second piece
    static const char second[] = "KCOLB ";       // (reversed)
    for (unsigned i = 0; i < 6; i++)
        b->pb_magic[9 + i] = second[5 - i];
    b->pb_magic[15] = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (unsigned i = 0; i < 9; i++)
        b->pb_magic[i] = first[i];
}

static void set_state(unsigned st)
{
    __atomic_store_n(&kev_probe_block.pb_state, st, __ATOMIC_RELEASE);
    clean_out(&kev_probe_block.pb_state, sizeof(kev_probe_block.pb_state));
}

static int publish(const struct proc *p, uint32_t arg)
{
    struct kev_probe_block *b = &kev_probe_block;
    struct ktrace_probe_pub pub;
    if (proc_copy_in(p, &pub, arg, sizeof(pub)) < 0)
        return -EFAULT;
    if (!pub.head_len || !proc_can_read(p, pub.head, pub.head_len) ||
        !proc_can_read(p, pub.page, pub.page_len) || (pub.flags & ~KEV_PROBE_F_KEEP))
        return -EINVAL;
    if (pub.head_len > 65536u || pub.page_len > 65536u)
        return -EINVAL;
    set_state(KEV_PROBE_IDLE);
    if (head_copy)
        kview_free(head_copy);
    head_copy = kview_alloc(pub.head_len + pub.page_len, 16);
    if (!head_copy)
        return -ENOMEM;
    kmemcpy(head_copy, (const void *)(uintptr_t)pub.head, pub.head_len);
    kmemcpy(head_copy + pub.head_len, (const void *)(uintptr_t)pub.page, pub.page_len);
    clean_out(head_copy, pub.head_len + pub.page_len);
    // (Tracing may run already: a passive logger's program may start it first.)
    // The host's words start at 0 (no buffer's), and count only for a reader that gives
    // buffers back: with the logger keeping them the ring reads none.
    trace_ring_set_acks(&ktrace, NULL);
    kmemset(kev_probe_acks, 0, sizeof(kev_probe_acks));
    clean_out(kev_probe_acks, sizeof(kev_probe_acks));
    if (!(pub.flags & KEV_PROBE_F_KEEP))
        trace_ring_set_acks(&ktrace, kev_probe_acks);
    trace_ring_set_quiet(&ktrace, 1);
    trace_ring_set_wake(&ktrace, pub.wake_bufs);
    kmemset(&work, 0, sizeof(work));
    kmemset(cleans, 0, sizeof(cleans));
    reopen_cycles0 = ktrace.tr_reopen_cycles;
    uint32_t gen = b->pb_gen + 1u;
    b->pb_check = 0;        // a reader that halts the target in between sees a bad block
    b->pb_version = KEV_PROBE_VERSION;
    b->pb_size = sizeof(*b);
    b->pb_self = (uintptr_t)b;
    b->pb_mem = (uintptr_t)ktrace.tr_mem;
    b->pb_bufs = (uintptr_t)&ktrace.tr_buf[0];
    b->pb_cpus = (uintptr_t)&ktrace.tr_cpu[0];
    b->pb_next_seq = (uintptr_t)&ktrace.tr_next_seq;
    b->pb_head = (uintptr_t)head_copy;
    b->pb_head_len = pub.head_len;
    b->pb_page = (uintptr_t)head_copy + pub.head_len;
    b->pb_acks = (uintptr_t)kev_probe_acks;
    b->pb_page_len = pub.page_len;
    b->pb_nbufs = ktrace.tr_nbufs;
    b->pb_buf_bytes = KEV_BUF_BYTES;
    b->pb_ncpus = k_ncpus < TRACE_MAX_CPUS ? k_ncpus : TRACE_MAX_CPUS;
    b->pb_flags = pub.flags;
    b->pb_buf_stride = sizeof(struct trace_buf);
    b->pb_cpu_stride = sizeof(struct trace_cpu);
    b->pb_off_seq = offsetof(struct trace_buf, tb_seq);
    b->pb_off_state = offsetof(struct trace_buf, tb_state);
    b->pb_off_cpu = offsetof(struct trace_buf, tb_cpu);
    b->pb_off_nslots = offsetof(struct trace_buf, tb_nslots);
    b->pb_off_lost = offsetof(struct trace_buf, tb_lost);
    b->pb_off_dropped = offsetof(struct trace_cpu, tc_dropped);
    b->pb_off_overwritten = offsetof(struct trace_cpu, tc_overwritten);
    b->pb_gen = gen;
    b->pb_flush_req = b->pb_flush_done = 0;
    b->pb_host_done = 0;
    b->pb_stop_time = 0;
    b->pb_flush_time = 0;
    b->pb_trl_flags = 0;
    b->pb_check = kev_probe_check(b);
    publish_block();
    set_state(ktrace.tr_running ? KEV_PROBE_RUNNING : KEV_PROBE_READY);
    if (b->pb_magic[0] != 'K') {
        write_magic(b);
        publish_block();
    }
    return 0;
}

static int stopped(const struct proc *p, uint32_t arg)
{
    struct kev_probe_block *b = &kev_probe_block;
    struct ktrace_probe_end end;
    if (proc_copy_in(p, &end, arg, sizeof(end)) < 0)
        return -EFAULT;
    if (b->pb_state == KEV_PROBE_IDLE)
        return -EINVAL;
    if (ktrace.tr_running)
        return -EBUSY;
    b->pb_stop_time = (uint64_t)end.stop_hi << 32 | end.stop_lo;
    b->pb_trl_flags = end.trl_flags;
    publish_block();
    set_state(KEV_PROBE_STOPPED);
    return 0;
}

int ktrace_probe_call(const struct proc *p, uint32_t op, uint32_t arg)
{
    switch (op) {
    case KTRACE_PROBE_PUBLISH:
        return publish(p, arg);
    case KTRACE_PROBE_STOPPED:
        return stopped(p, arg);
    case KTRACE_PROBE_STATUS: {
        uint32_t started = 0;   // (read unlocked: a stopping rule's count, not a loss count)
        for (unsigned c = 0; c < TRACE_MAX_CPUS; c++)
            started += __atomic_load_n(&ktrace.tr_cpu[c].tc_buffers, __ATOMIC_RELAXED);
        if (started > 0x3fffffffu)
            started = 0x3fffffffu;
        return (int)(started << 1 | (ktrace.tr_running != 0));
    }
    case KTRACE_PROBE_WORK: {   // (after the stop: the ring's count stands still)
        struct ktrace_probe_work w = work;
        uint64_t c = (uint64_t)w.cycles_hi << 32 | w.cycles_lo;
        c += ktrace.tr_reopen_cycles - reopen_cycles0;
        w.cycles_lo = (uint32_t)c;
        w.cycles_hi = (uint32_t)(c >> 32);
        uint64_t cc = 0;
        for (unsigned cpu = 0; cpu < TRACE_MAX_CPUS; cpu++) {
            cc += cleans[cpu].cycles;
            w.cleans += cleans[cpu].n;
        }
        w.clean_lo = (uint32_t)cc;
        w.clean_hi = (uint32_t)(cc >> 32);
        return proc_copy_out(p, arg, &w, sizeof(w));
    }
    case KTRACE_PROBE_HOSTDONE:
        arch_dcache_fetch(&kev_probe_block.pb_host_done, sizeof(kev_probe_block.pb_host_done));
        return kev_probe_block.pb_state == KEV_PROBE_STOPPED &&
               __atomic_load_n(&kev_probe_block.pb_host_done, __ATOMIC_ACQUIRE) ==
                   kev_probe_block.pb_gen;
    default:
        return -EINVAL;
    }
}

void ktrace_probe_started(void)
{
    if (kev_probe_block.pb_state == KEV_PROBE_READY)
        set_state(KEV_PROBE_RUNNING);
}

void ktrace_probe_gone(void)
{
    set_state(KEV_PROBE_IDLE);
    if (head_copy)
        kview_free(head_copy);
    head_copy = NULL;
}

void ktrace_probe_flush(void)
{
    uint64_t t0 = board_cycles(), c0 = cleans[cpu_id()].cycles;
    uint32_t req = __atomic_load_n(&kev_probe_block.pb_flush_req, __ATOMIC_ACQUIRE);
    uint64_t done;
    trace_ring_flush(&ktrace, &done);
    kev_probe_block.pb_flush_time = done;   // (before the answer's release)
    clean_out(&kev_probe_block.pb_flush_time, sizeof(kev_probe_block.pb_flush_time));
    __atomic_store_n(&kev_probe_block.pb_flush_done, req, __ATOMIC_RELEASE);
    clean_out(&kev_probe_block.pb_flush_done, sizeof(kev_probe_block.pb_flush_done));
    uint64_t c = (uint64_t)work.cycles_hi << 32 | work.cycles_lo;
    // (this CPU's cleans meanwhile are counted as cleans, not here too)
    c += board_cycles() - t0 - (cleans[cpu_id()].cycles - c0);
    work.cycles_lo = (uint32_t)c;
    work.cycles_hi = (uint32_t)(c >> 32);
    work.flushes++;
}
