// SPDX-License-Identifier: MIT
// libFuzzer target for kevdump's reading of a halted target (tools/kevdump/flight_read.c and
// the map's checks, tools/common/kev_ring_desc.c): the input is the target's memory from
// FUZZ_BASE, the flight-recorder map at its start (test/tools/flight_image.py's layout, which
// the seeds follow); a read outside it fails as a GDB server's E01 does. Any memory must be
// read and written as a .kev, or refused with a sentence, without reading outside what was
// fetched (ASan: the ring's structure and its buffers are fetched into blocks of exactly their
// size) or undefined behaviour. Seeds: kevgen captures laid out by flight_image.py.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flight_read.h"     // (tools/kevdump, on the include path)

#define FUZZ_BASE 0x20000000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
    const uint8_t *data;
    size_t size;
};

static int in_read(void *ctx, uint64_t addr, void *buf, size_t n)
{
    const struct input *in = ctx;
    if (addr < FUZZ_BASE || addr - FUZZ_BASE > in->size || n > in->size - (addr - FUZZ_BASE))
        return -1;
    memcpy(buf, in->data + (addr - FUZZ_BASE), n);
    return 0;
}

static int in_write(void *ctx, uint64_t addr, const void *buf, size_t n)
{
    (void)ctx, (void)addr, (void)buf, (void)n;
    abort();    // kevdump never writes the target
}

static const char *in_error(void *ctx)
{
    (void)ctx;
    return "E01";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w")))
        abort();
    struct input in = { data, size };
    struct kev_mem mem = { in_read, in_write, in_error, &in };
    static struct dump x;
    memset(&x, 0, sizeof(x));
    x.note = sink;
    int r = flight_read(&mem, FUZZ_BASE, &x);
    if (r == -2 && (!x.why[0] || strlen(x.why) >= sizeof(x.why) - 1))
        abort();        // a refusal is a sentence (not cut short)
    if (r == 0) {
        flight_pick(&x);
        uint64_t events = 0;
        if (x.nd > x.nbufs || flight_write(sink, "fuzz.kev", &x, 25000000, &events) != 0)
            abort();
    }
    flight_free(&x);
    return 0;
}
