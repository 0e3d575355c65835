// SPDX-License-Identifier: MIT
// libFuzzer target: random bytecode against the verifier and the VM. The input is (a) tried
// as a whole object and (b) spliced as instructions and integer constants into a compiled
// template. Whatever the verifier accepts is loaded and run; nothing may crash or hang.
#include <d/dcc.h>
#include <d/dcons.h>
#include <d/dprobes.h>
#include <d/dvm.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t arena[1 << 20] __attribute__((aligned(8)));
static uint8_t mem[1 << 20] __attribute__((aligned(8)));
static uint64_t blob[1 << 13];
static uint64_t tmpl[1 << 13];
static size_t tmpl_len;
static struct dvm_state st;

static const char script[] =
    "BEGIN /arg0 > 0/ { x = arg0 * 3 + 1; s = strjoin(\"ab\", \"cd\"); a[s, x] = 1; "
    "self->t = timestamp; this->v = x % 7 + a[\"abcd\", 4]; @q[probename] = quantize(x); "
    "printf(\"%d %s %d\\n\", x, s, strlen(s)); trace(substr(s, 1)); @c = count(); }";

static void rec_cb(void *arg, const struct dvm_rechdr *h)
{
    (void)arg;
    (void)h;
}

static void run(size_t len)
{
    struct dif_obj o;
    char err[256];
    if (dif_verify(blob, len, &o, err, sizeof(err)) != 0)
        return;
    struct dvm_opts vo = { 2048, 8192, 8192, DVM_BUF_RING, 0, 1, 2, 1024, 0 };
    if (dvm_load(&st, blob, len, &vo, mem, sizeof(mem), err, sizeof(err)) != 0)
        return;
    struct dvm_ctx ctx = { 0, 5, 5, 1, 0, 1000, 0, 0, "fuzz", 0, 1 };
    uint64_t args[DVM_NARGS] = { 4, 2, 3, 0, 0, 0, 0, 0, 0, 0 };
    for (uint32_t k = 0; k < st.obj.hdr->dh_nprobes; k++)
        dvm_fire(&st, &ctx, st.obj.probes[k].dp_id, args);
    dvm_buf_read(&st, 0, 1, rec_cb, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!tmpl_len) {
        struct dcc_in in = { script, sizeof(script) - 1, 0, 0, NULL, 0 };
        static struct dcc_out out;
        if (dcc_compile(&in, arena, sizeof(arena), &out) != 0)
            abort();
        memcpy(tmpl, out.obj, out.objlen);
        tmpl_len = out.objlen;
    }
    if (size > sizeof(blob))
        return 0;
    /* (a) the input as a whole object */
    memset(blob, 0, sizeof(blob));
    memcpy(blob, data, size);
    run(size);
    /* (b) the input as instructions (and constants) of the template */
    memcpy(blob, tmpl, tmpl_len);
    const struct dif_hdr *h = (const void *)blob;
    uint8_t *ins = (uint8_t *)blob + h->dh_insns;
    size_t n = size < (size_t)h->dh_ninsns * 4 ? size : (size_t)h->dh_ninsns * 4;
    memcpy(ins, data, n);
    if (size > n && h->dh_nints) {
        size_t m = size - n < (size_t)h->dh_nints * 8 ? size - n : (size_t)h->dh_nints * 8;
        memcpy((uint8_t *)blob + h->dh_ints, data + n, m);
    }
    run(tmpl_len);
    return 0;
}
