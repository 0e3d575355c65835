// SPDX-License-Identifier: MIT
// Files the boot loader handed the kernel (kernel/bootfile.c) through the semihosting calls
// of a board without a host (kernel/shost.c): what ARM semihosting's specification says each
// call answers (SYS_OPEN a handle or -1, SYS_READ the bytes not read, SYS_FLEN the length,
// SYS_SEEK 0, SYS_CLOSE 0), over the file's bytes; and the refusals: a program without
// KAPP_F_HOSTFS (EPERM), a name that is none (ENOENT), a mode that writes, a write, another
// process's handle, and the handles of a process that ended.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "kstub.h"
#include <kernel/shost.h>
#include <kernel/bootfile.h>

enum { SH_OPEN = 0x01, SH_CLOSE = 0x02, SH_WRITE = 0x05, SH_READ = 0x06, SH_SEEK = 0x0a,
       SH_FLEN = 0x0c, SH_ERRNO = 0x13 };

static uint8_t ram_a[4096] __attribute__((aligned(4096)));
static uint8_t ram_b[4096] __attribute__((aligned(4096)));
static struct proc *pa, *pb, *pn;
static const char text[] = "demo:::step { @ = count(); }\n";
static const char name[] = "/tmp/x/s.dobj";

static int setup(void **state)
{
    (void)state;
    kstub_reset();
    pa = kstub_proc(1, ram_a, sizeof(ram_a), KAPP_F_HOSTFS);
    pb = kstub_proc(2, ram_b, sizeof(ram_b), KAPP_F_HOSTFS);
    pn = kstub_proc(3, ram_b, sizeof(ram_b), 0);
    return 0;
}

// SYS_OPEN as process p of the name, in mode (0 "r", 1 "rb", 4 "w"), from p's RAM.
static int32_t open_as(struct proc *p, uint8_t *ram, const char *n, uint32_t mode)
{
    strcpy((char *)ram + 256, n);
    uint32_t *blk = (uint32_t *)ram;
    blk[0] = kstub_addr(ram + 256), blk[1] = mode, blk[2] = (uint32_t)strlen(n);
    return shost_call(p, SH_OPEN, kstub_addr(ram));
}

static int32_t call3(struct proc *p, uint8_t *ram, uint32_t op, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t *blk = (uint32_t *)ram;
    blk[0] = a, blk[1] = b, blk[2] = c;
    return shost_call(p, op, kstub_addr(ram));
}

static void test_open_read_seek_close(void **state)
{
    (void)state;
    int32_t h = open_as(pa, ram_a, name, 1);
    assert_true(h >= 0);
    assert_int_equal(call3(pa, ram_a, SH_FLEN, (uint32_t)h, 0, 0), sizeof(text) - 1);
    memset(ram_a + 1024, 0, 512);
    assert_int_equal(call3(pa, ram_a, SH_READ, (uint32_t)h, kstub_addr(ram_a + 1024), 10), 0);
    assert_memory_equal(ram_a + 1024, text, 10);
    // past the end: the bytes not read
    assert_int_equal(call3(pa, ram_a, SH_READ, (uint32_t)h, kstub_addr(ram_a + 1024), 100),
                     100 - (int)(sizeof(text) - 1 - 10));
    assert_memory_equal(ram_a + 1024, text + 10, sizeof(text) - 1 - 10);
    assert_int_equal(call3(pa, ram_a, SH_SEEK, (uint32_t)h, 5, 0), 0);
    assert_int_equal(call3(pa, ram_a, SH_READ, (uint32_t)h, kstub_addr(ram_a + 1024), 3), 0);
    assert_memory_equal(ram_a + 1024, text + 5, 3);
    assert_int_equal(call3(pa, ram_a, SH_SEEK, (uint32_t)h, 1000, 0), -1);
    // another process's handle, and writing: refused
    assert_int_equal(call3(pb, ram_b, SH_READ, (uint32_t)h, kstub_addr(ram_b + 1024), 3), -1);
    assert_int_equal(call3(pa, ram_a, SH_WRITE, (uint32_t)h, kstub_addr(ram_a + 1024), 3), -1);
    assert_int_equal(call3(pa, ram_a, SH_CLOSE, (uint32_t)h, 0, 0), 0);
    assert_int_equal(call3(pa, ram_a, SH_READ, (uint32_t)h, kstub_addr(ram_a + 1024), 3), -1);
}

static void test_refusals(void **state)
{
    (void)state;
    assert_int_equal(open_as(pn, ram_b, name, 1), -1);
    assert_int_equal(shost_call(pn, SH_ERRNO, 0), 1);         // EPERM
    assert_int_equal(open_as(pa, ram_a, "/tmp/x/none.dobj", 1), -1);
    assert_int_equal(shost_call(pa, SH_ERRNO, 0), 2);         // ENOENT
    assert_int_equal(open_as(pa, ram_a, "/tmp/x/s.dob", 1), -1);
    assert_int_equal(open_as(pa, ram_a, name, 4), -1);        // "w"
}

// Every open slot taken, then one process ends: its handles are closed with it.
static void test_slots_and_process_end(void **state)
{
    (void)state;
    for (unsigned i = 0; i < BOOTFILE_OPENS; i++)
        assert_true(open_as(pa, ram_a, name, 0) >= 0);
    assert_int_equal(open_as(pb, ram_b, name, 0), -1);
    shost_proc_gone(pa);
    int32_t h = open_as(pb, ram_b, name, 0);
    assert_true(h >= 0);
    assert_int_equal(call3(pb, ram_b, SH_CLOSE, (uint32_t)h, 0, 0), 0);
}

int main(void)
{
    assert_int_equal(bootfile_add("/tmp/x/s.dobj -junk", 13, (uintptr_t)text, sizeof(text) - 1), 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_open_read_seek_close, setup),
        cmocka_unit_test_setup(test_refusals, setup),
        cmocka_unit_test_setup(test_slots_and_process_end, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
