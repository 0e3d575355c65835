// SPDX-License-Identifier: MIT
// libFuzzer target: random and mutated D scripts through the whole engine. Each input is
// compiled; what compiles must verify, load, run (BEGIN, a few rounds of every timer probe
// and table probe, END) and print without a crash, hang or sanitizer report. Each input also
// goes through the board's preprocessor (dtrace -C), which must end in output or an error.
#include <d/dcc.h>
#include <d/dcpp.h>
#include <d/dcons.h>
#include <d/dprobes.h>
#include <d/dvm.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t arena[2 << 20] __attribute__((aligned(8)));
static uint8_t mem[2 << 20] __attribute__((aligned(8)));
static uint8_t cmem[256 << 10] __attribute__((aligned(8)));
static struct dvm_state st;
static struct dcons cons;
static struct dcpp cpp;
static char cpp_out[32 << 10];

static void sink(void *arg, const char *s, size_t n)
{
    (void)arg;
    (void)s;
    (void)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size <= 16384 && dcpp_run(&cpp, (const char *)data, size, cpp_out, sizeof(cpp_out)) == 0 &&
        (cpp.outlen >= sizeof(cpp_out) || cpp_out[cpp.outlen] != 0))
        abort(); /* the result is terminated right after the length it reports */
    struct dcc_in in = { (const char *)data, size, 0, (size & 1) != 0, NULL, 0 };
    static struct dcc_out out;
    if (size > 16384 || dcc_compile(&in, arena, sizeof(arena), &out) != 0)
        return 0;
    struct dif_obj o;
    char err[256];
    if (dif_verify(out.obj, out.objlen, &o, err, sizeof(err)) != 0)
        abort(); /* the compiler produced something the verifier rejects */
    struct dvm_opts vo = { 4096, 16384, 16384, (unsigned)(size % 3), 0, 2, 2, 2048, 0 };
    if (dvm_load(&st, out.obj, out.objlen, &vo, mem, sizeof(mem), err, sizeof(err)) != 0)
        return 0;
    struct dcons_out so = { sink, NULL };
    dcons_init(&cons, &st, &so, &so, cmem, sizeof(cmem));
    struct dvm_ctx ctx = { 0, 5, 5, 1, 0, 1000, 0, 0, "fuzz", 0, 1 };
    uint64_t args[DVM_NARGS] = { 1, 2, 3, (uint64_t)-1, 0, 0, 0, 0, 0, 0 };
    dvm_fire(&st, &ctx, DPROBE_BEGIN, args);
    for (int round = 0; round < 4; round++) {
        for (uint32_t k = 0; k < st.obj.hdr->dh_nprobes; k++) {
            ctx.cpu = (unsigned)(round & 1);
            ctx.tid = round;
            ctx.timestamp += 1000;
            args[0] = (uint64_t)round * 977;
            dvm_fire(&st, &ctx, st.obj.probes[k].dp_id, args);
        }
        for (unsigned cpu = 0; cpu < vo.ncpu; cpu++)
            dvm_buf_read(&st, cpu, 0, dcons_record, &cons);
    }
    ctx.cpu = 0;
    dvm_fire(&st, &ctx, DPROBE_END, args);
    for (unsigned cpu = 0; cpu < vo.ncpu; cpu++)
        dvm_buf_read(&st, cpu, 1, dcons_record, &cons);
    dcons_drops(&cons);
    dcons_final(&cons);
    return 0;
}
