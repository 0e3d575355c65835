// SPDX-License-Identifier: MIT
// The D engine's cost per probe firing on the target CPU, without the kernel: a bare-metal
// image for mps2-an385 that compiles each case's script on the target, loads it, and times
// batches of dvm_fire() calls against batches of calls to an empty hook with the same
// arguments. Run under QEMU with -icount shift=0, where virtual time is one ns per instruction
// and the 25 MHz CMSDK timer advances once per 40 instructions, so timer ticks * 40 are
// instructions. Prints "BENCH d_<case>_insns <n> insns" over semihosting (the names #5 asks
// for: d_pred_fail_insns, d_count_insns).
#include <d/dcc.h>
#include <d/dprobes.h>
#include <d/dvm.h>
#include <d/dstacks.h>
#include <ehabi.h>
#include "dbench_cases.h"   // tools/dtrace: the cases the host benchmark runs too
#include <stdint.h>
#include <string.h>

#define TIMER0_CTRL   (*(volatile uint32_t *)0x40000000u)
#define TIMER0_VALUE  (*(volatile uint32_t *)0x40000004u)
#define TIMER0_RELOAD (*(volatile uint32_t *)0x40000008u)
#define INSNS_PER_TICK 40u /* 1 ns per instruction / 25 MHz */
#define BATCH 2000u

void reset_handler(void);
int main(void);

extern uint32_t __bss_start[], __bss_end[], __stack_top[];
extern const char __exidx_start[], __exidx_end[];

/* ustack_count's stacks: the kernel's EHABI walk (kernel/arch/armv7m/ehabi.c) over this
 * image's own stack at the firing (main, bench, dvm_fire ... this hook: about 8 frames), with
 * a checked reader as the kernel's, so the figure is a real walk's. */
static int bench_read(const void *ctx, uint64_t addr, void *dst, unsigned n)
{
    (void)ctx;
    if (addr >= 0x00400000u && (addr < 0x20000000u || addr + n > 0x20400000u))
        return -1;
    memcpy(dst, (const void *)(uintptr_t)addr, n);
    return 0;
}

__attribute__((noinline)) static unsigned bench_stack(unsigned kind, uint64_t *pcs, unsigned max)
{
    (void)kind;
    struct ehabi_regs r;
    memset(&r, 0, sizeof(r));
    __asm__ volatile("mov %0, sp\n\tmov %1, r7" : "=r"(r.r[13]), "=r"(r.r[7]));
    r.r[15] = (uint32_t)(uintptr_t)&bench_stack & ~1u;
    struct unwind_mem m = { bench_read, NULL, r.r[13], (uintptr_t)__stack_top };
    struct ehabi_table t = { (uint32_t)(uintptr_t)__exidx_start, (uint32_t)(uintptr_t)__exidx_end,
                             0, 0x00400000u };
    int err;
    return ehabi_unwind(&m, &t, &r, pcs, max, &err);
}

static void default_handler(void)
{
    for (;;) {
    }
}

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(uintptr_t)__stack_top, reset_handler, default_handler, default_handler,
    default_handler, default_handler, default_handler, 0, 0, 0, 0, default_handler,
    default_handler, 0, default_handler, default_handler,
};

static int semihost(int op, const void *arg)
{
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static void puts_sh(const char *s) { semihost(0x04, s); }

static void put_num(uint64_t v)
{
    char buf[24], tmp[24];
    int n = 0, k = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        buf[k++] = tmp[--n];
    buf[k] = 0;
    puts_sh(buf);
}

void reset_handler(void)
{
    for (uint32_t *p = __bss_start; p < __bss_end; p++)
        *p = 0;
    int rc = main();
    /* SYS_EXIT: ADP_Stopped_ApplicationExit (status 0) or RunTimeErrorUnknown (status 1) */
    semihost(0x18, (const void *)(uintptr_t)(rc ? 0x20023u : 0x20026u));
    for (;;) {
    }
}

static uint8_t arena[512u << 10] __attribute__((aligned(8)));
static uint8_t mem[256u << 10] __attribute__((aligned(8)));
static struct dvm_state st;
static struct dcc_out out;
static volatile uint64_t sink;

/* plain_hook: what a hook costs with no engine behind it (same arguments). */
__attribute__((noinline)) static void plain_hook(struct dvm_state *s, const struct dvm_ctx *c,
                                                 uint32_t id, const uint64_t *args)
{
    __asm__ volatile("" : : "r"(s), "r"(c), "r"(id), "r"(args) : "memory");
}

static void drain(void *arg, const struct dvm_rechdr *h)
{
    (void)arg;
    sink += h->rh_size;
}

static uint32_t now(void) { return TIMER0_VALUE; } /* counts down */

static int bench(const char *name, const char *src)
{
    struct dcc_in in = { src, strlen(src), 64, 0, NULL, 0 };
    char err[128];
    if (dcc_compile(&in, arena, sizeof(arena), &out) != 0) {
        puts_sh(out.err);
        return 1;
    }
    struct dvm_opts o = { 64u << 10, 16u << 10, 16u << 10, DVM_BUF_SWITCH, 1, 1, 0, 0, 0 };
    if (dvm_load(&st, out.obj, out.objlen, &o, mem, sizeof(mem), err, sizeof(err)) != 0) {
        puts_sh(err);
        return 1;
    }
    uint32_t id = st.obj.probes[0].dp_id;
    struct dvm_ctx ctx = { 0, 100, 101, 1, 0, 0, 0, 0, "bench", 0, 1 };
    uint64_t args[DVM_NARGS] = { 0 };
    args[1] = (uint64_t)(uintptr_t)d_bench_msg; /* a send's message */
    dvm_uread = d_bench_uread;
    dvm_stack = bench_stack;
    uint64_t engine = 0, plain = 0;
    for (int round = 0; round < 4; round++) {
        uint32_t t0 = now();
        for (uint32_t k = 0; k < BATCH; k++) {
            args[0] = k;
            ctx.timestamp += 1000;
            dvm_fire(&st, &ctx, id, args);
        }
        uint32_t t1 = now();
        for (uint32_t k = 0; k < BATCH; k++) {
            args[0] = k;
            ctx.timestamp += 1000;
            plain_hook(&st, &ctx, id, args);
        }
        uint32_t t2 = now();
        if (round > 0) { /* round 0 warms up (first keys, first dynamic variables) */
            engine += t0 - t1;
            plain += t1 - t2;
        }
        dvm_buf_read(&st, 0, 0, drain, NULL);
    }
    if (st.stats[0].drops || st.stats[0].errors) {
        puts_sh("dbench_target: unexpected drops or errors\n");
        return 1;
    }
    uint64_t per10 = (engine - plain) * INSNS_PER_TICK * 10u / (3u * BATCH);
    puts_sh("BENCH d_");
    puts_sh(name);
    puts_sh("_insns ");
    put_num(per10 / 10);
    puts_sh(".");
    put_num(per10 % 10);
    puts_sh(" insns\n");
    return 0;
}

int main(void)
{
    TIMER0_CTRL = 0;
    TIMER0_RELOAD = 0xffffffffu;
    TIMER0_VALUE = 0xffffffffu;
    TIMER0_CTRL = 1;
    int rc = 0;
#define RUN_CASE(name, program) rc |= bench(name, program);
    D_BENCH_CASES(RUN_CASE)
#undef RUN_CASE
    return rc;
}
