// SPDX-License-Identifier: MIT
// pidself: a D consumer without KAPP_F_PRIV, for the pid provider's rule of who may trace a
// process (docs/pid.md, "Who may"; test/qemu/test_pid_perm.sh), and for USDT's
// (docs/usdt.md, "Who may"; test/qemu/test_usdt_perm.sh). Its command line is
//     pidself OBJ N [PEER MS [HOLD]]
// It loads the host-compiled D object OBJ (tools/dcompile) and starts it; with PEER it first
// starts that program (pidpeer, which reads its own text as it starts and again MS ms later;
// usdtpeer, which reads its bait) and keeps the object loaded until it has ended, or with HOLD
// only HOLD ms, then stops and unloads it before waiting for PEER. Refused, it prints the
// kernel's reason as dtrace does and exits 1. Accepted, it calls its own pidself_step and
// passes its own USDT site bait:::mark N times each, stops the object and prints its own
// count of those calls beside the D globals `entries` and `returns` (the object's clauses
// count its probes' firings there), read from the engine's state the kernel maps read-only
// into the consumer (KDT_STATE), and `marks` on a line of its own; then every D global
// integer, the engine's error count, whether it may read the kernel's fbt table, and its own
// secret (test/qemu/test_d_priv.sh). Either way it reports its own bait (usdt_bait.h) as it
// reads it, after the object was stopped.
#include <kern.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <d/dif.h>
#include <d/dvm.h>
#include <uapi/kdtrace.h>
#include <kdt_dobj.h>
#include "../usdtpeer/usdt_bait.h"

static volatile unsigned calls;     // the program's own count of pidself_step's calls
// What its own D program may read of it (copyin: the consumer's own program); printed.
volatile uint64_t pidself_secret = 0x0123fedcba987654ull;
static uint8_t file[16384] __attribute__((aligned(8)));

__attribute__((noinline)) unsigned pidself_step(unsigned i, unsigned acc);

unsigned pidself_step(unsigned i, unsigned acc)
{
    calls++;
    return acc + i * 3u;
}

static int dt(uint32_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
    return kresult(KCALL4(KC_DTrace, cmd, a, b, c));
}

// The D object in OBJ, as tools/dcompile wrote it: its header, or NULL after saying why.
static const struct dobj_file_hdr *load_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("pidself: cannot open %s\n", path);
        return NULL;
    }
    size_t n = fread(file, 1, sizeof(file), f);
    fclose(f);
    const struct dobj_file_hdr *h = (const struct dobj_file_hdr *)file;
    if (!dobj_file_ok(h, n)) {
        printf("pidself: %s is not a compiled D program (tools/dcompile)\n", path);
        return NULL;
    }
    return h;
}

// The D global integer `name` in the engine's state, as decimal text; "none" when the
// object has no such variable. (Its dv_size bytes, little-endian as every board is.)
static struct u64txt global(const struct dvm_state *st, const char *name)
{
    for (uint32_t k = 0; k < st->obj.hdr->dh_nvars; k++) {
        const struct dif_var *v = &st->obj.vars[k];
        if (v->dv_scope == DIF_SCOPE_GLOBAL && v->dv_type == DIF_TYPE_INT &&
            v->dv_size <= 8 && !strcmp(dif_str(&st->obj, v->dv_name), name)) {
            uint64_t x = 0;
            memcpy(&x, st->gvars + st->var_off[k], v->dv_size);
            return u64txt(x);
        }
    }
    struct u64txt none = { "none" };
    return none;
}

// The object h loaded and started as dtrace does: KDT_GO's result (a refusal said with the
// kernel's reason and its errno), or -2 when the kernel did not load it (said too).
static int program_start(const struct dobj_file_hdr *h)
{
    static char why[128];
    struct kdt_load l = kdt_load_of(h, why, sizeof(why));
    if (dt(KDT_LOAD, (uint32_t)(uintptr_t)&l, 0, 0) < 0) {
        printf("pidself: could not enable tracing: %s\n", why[0] ? why : "load failed");
        return -2;
    }
    why[0] = 0;
    int go = dt(KDT_GO, (uint32_t)(uintptr_t)why, sizeof(why), 0);
    int e = errno;
    if (go < 0 && e == EPERM)   // dtrace's words: the kernel's reason, and its errno
        printf("pidself: could not enable tracing: %s (EPERM)\n", why);
    else if (go < 0)
        printf("pidself: could not enable tracing: %s (errno %d)\n", why, e);
    return go;
}

// The stopped object's counts beside the program's own (calls, acc), then every D global
// integer and the errors the engine counted.
static void counts_print(unsigned acc)
{
    const struct dvm_state *st = (const struct dvm_state *)(uintptr_t)dt(KDT_STATE, 0, 0, 0);
    printf("pidself: pid %d called pidself_step %u times (acc %u); D: entries %s, "
           "returns %s\n", ProcSelf(), calls, acc, global(st, "entries").s,
           global(st, "returns").s);
    printf("pidself: D: marks %s\n", global(st, "marks").s);
    uint64_t errs = 0;
    for (uint32_t k = 0; k < st->obj.hdr->dh_nvars; k++) {
        const struct dif_var *v = &st->obj.vars[k];
        if (v->dv_scope == DIF_SCOPE_GLOBAL && v->dv_type == DIF_TYPE_INT && v->dv_size <= 8)
            printf("pidself: D %s = %s\n", dif_str(&st->obj, v->dv_name),
                   global(st, dif_str(&st->obj, v->dv_name)).s);
    }
    for (unsigned c = 0; c < st->opts.ncpu; c++)
        errs += st->stats[c].errors;
    printf("pidself: D errors %s\n", u64txt(errs).s);
}

// What this unprivileged consumer may see: the kernel's fbt table (every kernel function's
// address: privileged consumers only), and its own secret.
static void privilege_print(void)
{
    static uint8_t table[64];
    int tl = dt(KDT_FBT_TABLE, (uint32_t)(uintptr_t)table, sizeof(table), 0);
    if (tl < 0)
        printf("pidself: fbt table: %s\n", errno == EPERM ? "refused (EPERM)" : "errno");
    else
        printf("pidself: fbt table: %d bytes\n", tl);
    printf("pidself: own secret %08lx%08lx\n", (unsigned long)(uint32_t)(pidself_secret >> 32),
           (unsigned long)(uint32_t)pidself_secret);
}

int main(void)
{
    static char buf[512];
    char *argv[8];
    int argc = kargs("pidself", buf, sizeof(buf), argv, 8);
    if (argc != 3 && argc != 5 && argc != 6) {
        printf("pidself: usage: pidself OBJ N [PEER MS [HOLD]]\n");
        return 2;
    }
    const struct dobj_file_hdr *h = load_file(argv[1]);
    if (!h)
        return 2;
    unsigned n = (unsigned)atoi(argv[2]);
    int peer = -1;
    if (argc >= 5 && (peer = ProcSpawn(argv[3], 0, (uint32_t)atoi(argv[4]))) < 0) {
        printf("pidself: cannot start %s: errno %d\n", argv[3], errno);
        return 2;
    }
    int go = program_start(h);
    if (go == -2)
        return 1;
    unsigned acc = 0;
    for (unsigned i = 0; go >= 0 && i < n; i++) {
        acc = pidself_step(i, acc);
        bait_mark(i);
    }
    int status = 0;
    if (argc == 6)  // the object stays loaded HOLD ms
        ThreadSleep((uint64_t)atoi(argv[5]) * 1000000u);
    else if (peer > 0)  // the object stays loaded while the peer reads its text again
        ProcWait(peer, &status);
    if (go >= 0) {
        dt(KDT_STOP, 0, 0, 0);
        counts_print(acc);
    }
    privilege_print();
    dt(KDT_UNLOAD, 0, 0, 0);
    bait_report("pidself", "after");
    if (argc == 6 && peer > 0)
        ProcWait(peer, &status);
    if (peer > 0)
        printf("pidself: %s (pid %d) exited with status %d\n", argv[3], peer,
               KW_EXITSTATUS(status));
    printf("pidself: done\n");
    return go < 0 ? 1 : 0;
}
