// SPDX-License-Identifier: MIT
// libFuzzer target for the .kev decoder (trace/kev_decode.c): any byte string must be
// decoded or rejected with an error message, without crashing, reading out of bounds or
// looping. Built with ASan + UBSan by `make fuzz`; seeds are small traces made by kevgen.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <trace/kev_decode.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int touch(void *user, struct kev_reader *r, const struct kev_event *e)
{
    char buf[64];
    uint32_t *sum = user;
    for (unsigned i = 0; i < e->nw; i++) // every payload word must be readable
        *sum += e->w[i];
    kev_event_string(r, e, 0, buf, sizeof(buf));
    if (strlen(buf) >= sizeof(buf))
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct kev_reader r;
    uint32_t sum = 0;
    if (kev_open(&r, data, size) == 0) {
        kev_set_user(&r, &sum);
        kev_on_any(&r, touch);
        kev_decode(&r);
        (void)kev_lost_total(&r);
        (void)kev_proc_name(&r, 1);
        (void)kev_attr(&r, "SYSNAME", NULL);
    }
    const char *msg = kev_error(&r);
    if ((r.kr_err != 0) != (msg[0] != 0) || strlen(msg) >= sizeof(r.kr_msg))
        abort(); // an error always comes with a message
    return 0;
}
