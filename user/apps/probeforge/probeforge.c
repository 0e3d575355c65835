// SPDX-License-Identifier: MIT
// probeforge: what any program (flags 0, under the MPU or MMU) can do to the probe path
// (docs/probe-path.md, "What a scan trusts"): the probe block's magic in its image (its flash
// slot: below the kernel's RAM on qemu-virt-a53), and in its RAM a whole forged block with a
// valid check that describes a capture of its own making (13 user events in one buffer), its
// table in the program's RAM. A scan that believed the first magic would write the forgery,
// or refuse the real capture. It says where it planted them and stays for `ms` (argument,
// default 2000) so that the forgery lies there while the real capture runs.
#include <kern.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace/kev.h>
#include <trace/kev_probe.h>

#define FORGED_EVENTS 13u

static const char image_magic[KEV_PROBE_MAGIC_LEN] __attribute__((aligned(16), used)) =
    KEV_PROBE_MAGIC;

static struct kev_probe_block forged __attribute__((aligned(16)));
static struct kev_slot slots[FORGED_EVENTS + 3u];
static uint8_t table[16], cpus[64];
static uint32_t next_seq = 1;
static char head[] = "TRACE_FORGED_HEADER::";

static void slot(unsigned i, unsigned cls, unsigned ev, uint32_t a, uint32_t b)
{
    slots[i].header = KEV_HEADER(KEV_TYPE_S, cls, ev, 0);
    slots[i].data[0] = 1000u + i;
    slots[i].data[1] = a;
    slots[i].data[2] = b;
}

static void forge(void)
{
    unsigned n = FORGED_EVENTS + 3u;
    slot(0, KEV_C_CONTROL, KEV_CTL_BUFFER, 0, 0);
    slot(1, KEV_C_CONTROL, KEV_CTL_TIME, 0, 1000);
    for (unsigned i = 0; i < FORGED_EVENTS; i++)
        slot(2 + i, KEV_C_USER, 1, 0xf0f0u, i);
    slot(n - 1, KEV_C_CONTROL, KEV_CTL_BUFFER_END, 0, FORGED_EVENTS);
    table[4] = 2;                               // seq 0, FULL, CPU 0, n slots
    memcpy(&table[12], &n, 2);
    struct kev_probe_block *b = &forged;
    b->pb_version = KEV_PROBE_VERSION;
    b->pb_size = sizeof(*b);
    b->pb_self = (uintptr_t)b;
    b->pb_mem = (uintptr_t)slots;
    b->pb_bufs = (uintptr_t)table;
    b->pb_cpus = (uintptr_t)cpus;
    b->pb_next_seq = (uintptr_t)&next_seq;
    b->pb_head = (uintptr_t)head;
    b->pb_head_len = sizeof(head) - 1;
    b->pb_page = (uintptr_t)head;
    b->pb_nbufs = 1;
    b->pb_buf_bytes = KEV_BUF_BYTES;
    b->pb_ncpus = 1;
    b->pb_buf_stride = 16;
    b->pb_cpu_stride = 64;
    b->pb_off_seq = 0;
    b->pb_off_state = 4;
    b->pb_off_cpu = 5;
    b->pb_off_nslots = 12;
    b->pb_off_dropped = 40;
    b->pb_off_overwritten = 48;
    b->pb_gen = 1;
    b->pb_check = kev_probe_check(b);
    b->pb_state = KEV_PROBE_STOPPED;
    memcpy(b->pb_magic, image_magic, KEV_PROBE_MAGIC_LEN);
}

int main(int argc, char **argv)
{
    unsigned ms = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 2000u;
    forge();
    printf("probeforge: a forged probe block at 0x%lx, the magic in the image at 0x%lx\n",
           (unsigned long)(uintptr_t)&forged, (unsigned long)(uintptr_t)image_magic);
    ThreadSleep((uint64_t)ms * 1000000u);
    return 0;
}
