// SPDX-License-Identifier: MIT
// ktest: kernel integration tests run as pid 1 on the target. Each check prints one TAP line
// ("ok N - ..." / "not ok N - ..."); the program's exit status is the number of failures.
#ifndef KTEST_H
#define KTEST_H

#include <kern.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <tap.h>

#define CHECK(cond, ...) tap_check((cond), __VA_ARGS__)
// Expects a -1/errno result with the given errno.
#define CHECK_ERR(expr, err)                                                             \
    do {                                                                                 \
        errno = 0;                                                                       \
        int r_ = (expr);                                                                 \
        tap_check(r_ == -1 && errno == (err), "%s fails with %s (got %d, errno %d)", #expr, \
                  #err, r_, errno);                                                      \
    } while (0)

uint64_t now_ms(void);
// Stacks for test threads: a small pool handed out and returned by tests, each TSTACK_SIZE
// bytes: 1 KB above its guard (kern.h KSTACK).
void *stack_get(void);
#define TSTACK_SIZE KSTACK_SIZE(1024u)

#define KTEST_PRIO 100

// ktest checks the kernel's rules on one CPU (priority order, preemption, FIFO, round-robin;
// kt_smp checks those of several): it keeps itself and every thread it creates on CPU 0, its
// own choice (ThreadCtl KTCTL_RUNMASK; a no-op on a one-CPU board), since a device's owner
// is not kept on one CPU for it (docs/interrupts.md "Devices and CPUs"). main.c.
int ktest_thread_create(thread_fn fn, void *arg, void *stack, size_t stack_size, int prio,
                        int policy);
#define ThreadCreate ktest_thread_create

void test_sched(void);
void test_ipc(void);
void test_sync(void);
void test_time(void);
void test_late_tick(void);
void test_irq(void);
void test_proc(void);
void test_errors(void);
void test_trace(void);
void test_qnx_trace(void);
void test_smp(void);

#endif
