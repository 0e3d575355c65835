// SPDX-License-Identifier: MIT
// dtrace on the target: loads a D program compiled on the host (tools/dcompile; `make dtrace
// S=script.d` does both) into the kernel, starts it, runs a workload, and prints what the
// program records as dtrace(1M) does, with the consumer of trace/d (dcons). The kernel keeps
// the engine; its state is mapped read-only here, records come through KDT_READ, and the two
// consumer actions that change aggregations (clear, trunc) go through the kernel.
//   dtrace [-c program] FILE.dobj        (command line from semihosting)
// Exit status: the program's exit(n), 0 when it ends without one, 1 when it cannot run.
#include <kern.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <d/dcons.h>
#include <d/dobj_file.h>
#include <uapi/kdtrace.h>

uintptr_t sys_semihost(uintptr_t op, uintptr_t param);

static uint8_t file[8 * 1024] __attribute__((aligned(8)));
static uint8_t records[8 * 1024] __attribute__((aligned(8)));
static uint8_t scratch[4 * 1024] __attribute__((aligned(8)));

static int dt(uint32_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
    return kresult(KCALL4(KC_DTrace, cmd, a, b, c));
}

// The consumer's clear() and trunc() act on the kernel's aggregations (see the Makefile's
// -D renames for consume.c: the engine's state is read-only here).
void kdt_user_agg_clear(struct dvm_state *st, unsigned agg);
void kdt_user_agg_clear(struct dvm_state *st, unsigned agg)
{
    (void)st;
    dt(KDT_AGGCLEAR, agg, 0, 0);
}

void kdt_user_agg_remove(struct dvm_state *st, unsigned agg, const uint8_t *keys);
void kdt_user_agg_remove(struct dvm_state *st, unsigned agg, const uint8_t *keys)
{
    (void)st;
    dt(KDT_AGGREMOVE, agg, (uint32_t)(uintptr_t)keys, 0);
}

static void write_out(void *arg, const char *s, size_t n)
{
    fwrite(s, 1, n, arg);
}

static unsigned read_records(struct dcons *c)
{
    int n = dt(KDT_READ, 0, (uint32_t)(uintptr_t)records, sizeof(records));
    unsigned count = 0;
    for (int off = 0; n > 0 && off < n; count++) {
        const struct dvm_rechdr *r = (const struct dvm_rechdr *)(records + off);
        if (r->rh_size < sizeof(*r) || (int)r->rh_size > n - off)
            break;
        dcons_record(c, r);
        off += (int)r->rh_size;
    }
    dcons_drops(c);
    return count;
}

static int load_file(const char *path, struct dobj_file_hdr **h)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "dtrace: cannot open %s\n", path);
        return -1;
    }
    size_t n = fread(file, 1, sizeof(file), f);
    fclose(f);
    *h = (struct dobj_file_hdr *)file;
    if (n < sizeof(**h) || (*h)->magic != DOBJ_MAGIC || (*h)->version != DOBJ_VERSION ||
        (*h)->objlen > n - sizeof(**h)) {
        fprintf(stderr, "dtrace: %s is not a compiled D program (tools/dcompile)\n", path);
        return -1;
    }
    return 0;
}

int main(void)
{
    static char cmd[256];
    char *argv[8];
    int argc = 0;
    uint32_t blk[2] = { (uint32_t)(uintptr_t)cmd, sizeof(cmd) - 1 };
    if (sys_semihost(0x15, (uintptr_t)blk) == 0) {
        cmd[blk[1]] = '\0';
        for (char *p = strtok(cmd, " "); p && argc < 8; p = strtok(NULL, " "))
            argv[argc++] = p;
    }
    const char *workload = NULL, *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-c") && i + 1 < argc)
            workload = argv[++i];
        else
            path = argv[i];
    }
    struct dobj_file_hdr *h;
    if (!path) {
        fprintf(stderr, "usage: dtrace [-c program] FILE.dobj\n");
        return 1;
    }
    if (load_file(path, &h) < 0)
        return 1;

    static char why[128];
    struct kdt_load l = {
        .obj = (uint32_t)(uintptr_t)(h + 1), .objlen = h->objlen, .bufsize = h->bufsize,
        .aggsize = h->aggsize, .dynvarsize = h->dynvarsize, .specsize = h->specsize,
        .bufpolicy = h->bufpolicy, .bufresize_manual = h->bufresize_manual, .nspec = h->nspec,
        .errbuf = (uint32_t)(uintptr_t)why, .errlen = sizeof(why),
    };
    if (dt(KDT_LOAD, (uint32_t)(uintptr_t)&l, 0, 0) < 0) {
        fprintf(stderr, "dtrace: could not enable tracing: %s\n",
                errno == EINVAL ? why : strerror(errno));
        return 1;
    }
    struct dvm_state *st = (struct dvm_state *)(uintptr_t)dt(KDT_STATE, 0, 0, 0);
    struct dcons_out out = { write_out, stdout }, err = { write_out, stderr };
    static struct dcons cons;
    dcons_init(&cons, st, &out, &err, scratch, sizeof(scratch));
    cons.quiet = (int)h->quiet;
    if (st->bufsize_lowered)
        fprintf(stderr, "dtrace: buffer size lowered to %luk\n",
                (unsigned long)(st->bufsize_lowered / 1024));
    setvbuf(stdout, NULL, _IOLBF, 0);

    int child = -1, status = 0;
    if (dt(KDT_GO, 0, 0, 0) < 0)
        return 1;
    if (workload && (child = ProcSpawn(workload, 0, 0)) < 0)
        fprintf(stderr, "dtrace: cannot start %s: errno %d\n", workload, errno);
    for (;;) {
        TimerTimeout((uint64_t)h->switchrate_ms * 1000000u);
        if (child > 0 && ProcWait(child, &status) == child)
            child = -1;
        read_records(&cons);
        if (st->exiting || child < 0)
            break;
    }
    dt(KDT_STOP, 0, 0, 0);
    read_records(&cons);
    dcons_final(&cons);
    fflush(stdout);
    if (child > 0)
        ProcWait(child, &status);
    dt(KDT_UNLOAD, 0, 0, 0);
    return cons.exited ? cons.exit_status : 0;
}
