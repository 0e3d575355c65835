// SPDX-License-Identifier: MIT
// dtrace -i over a test's capture (dtrace_replay.h).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <d/dcc.h>
#include <d/dcons.h>
#include <d/dvm.h>
#include <trace/trace_ring.h>
#include <kevhost/kev_capture.h>
#include "../../tools/dtrace/kevreplay.h"
#include "dtrace_replay.h"

static void text_write(void *arg, const char *s, size_t n)
{
    struct replay_text *t = arg;
    if (n > sizeof(t->s) - 1 - t->n)
        n = sizeof(t->s) - 1 - t->n;
    memcpy(t->s + t->n, s, n);
    t->n += n;
    t->s[t->n] = 0;
}

void replay_capture_begin(struct trace_ring *ring, void *mem, size_t len, struct kcap *c)
{
    memset(&trace_host_port, 0, sizeof(trace_host_port));
    assert_int_equal(trace_ring_init(ring, mem, len, 2), 0);
    trace_filter_all(ring, 1);
    assert_int_equal(trace_ring_start(ring), 0);
    kcap_begin(c, 0, 1000000);
    trace_host_port.now = 1000;
}

void replay_capture_file(struct trace_ring *ring, struct kcap *c, char *path, size_t n)
{
    kcap_finish(c, ring);
    snprintf(path, n, "/tmp/test_dtrace_replay.%d.kev", (int)getpid());
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(c->data, 1, c->len, f), c->len);
    fclose(f);
    kcap_free(c);
}

void replay_run(const char *path, const char *prog, unsigned strsize, struct replay_text *out,
                struct replay_text *err)
{
    static uint8_t arena[1u << 20];
    static struct dcc_out co;
    memset(&co, 0, sizeof(co));
    struct dcc_in in = { prog, strlen(prog), strsize, 0, NULL, 0 };
    assert_int_equal(dcc_compile(&in, arena, sizeof(arena), &co), 0);
    static struct dvm_state st;
    struct dvm_opts vo = { 1u << 16, 1u << 16, 1u << 16, 0, 0, 1, 1, 1u << 12, 0 };
    size_t memlen = 4u << 20;
    void *m = malloc(memlen), *cm = malloc(memlen);
    char why[256];
    assert_int_equal(dvm_load(&st, co.obj, co.objlen, &vo, m, memlen, why, sizeof(why)), 0);
    memset(out, 0, sizeof(*out));
    memset(err, 0, sizeof(*err));
    struct dcons_out so = { text_write, out }, se = { text_write, err };
    static struct dcons cons;
    dcons_init(&cons, &st, &so, &se, cm, memlen);
    cons.quiet = 1;
    volatile sig_atomic_t stop = 0;
    assert_int_equal(kev_replay(path, &st, &cons, 1000000000u, 1, 0, &stop, NULL), 0);
    dvm_buf_read(&st, 0, 1, dcons_record, &cons);
    dcons_final(&cons);
    unlink(path);
    free(m);
    free(cm);
}
