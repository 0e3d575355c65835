// SPDX-License-Identifier: MIT
// What every kernel file needs: fixed-width types, error numbers, panic, console printing and
// the compile-time limits of the static object pools.
#ifndef KERNEL_KERNEL_H
#define KERNEL_KERNEL_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdarg.h>
#include <uapi/kerrno.h>

// Object pools: the kernel allocates nothing at run time except from these.
#define KMAX_THREADS     48
#define KMAX_PROCS       16
#define KMAX_CHANNELS    32
#define KMAX_CONNECTIONS 64
#define KMAX_PULSES      64
// Bounds on the pool above: no one process, and no one channel, can take it all.
// Interrupt pulses do not come from it (each attached line has its own, see irq.c).
#define KMAX_PULSES_PER_PROC 16     // queued pulses a process has sent (or its timers)
#define KMAX_PULSES_PER_CHAN 32     // queued pulses of processes on one channel
#define KMAX_TIMERS      32
#define KMAX_MUTEXES     32
#define KMAX_CONDS       32
#define KMAX_SEMS        32
#define KMAX_IRQS        32
#define KMAX_NAMES       8      // channels' names (kname.c): 20 bytes each, netduinoplus2's
                                // kernel RAM has room for few
// Per-process limits for a process without KAPP_F_PRIV: a quarter of each pool, so that no
// one process can take everything. Beyond them a create call is EAGAIN.
#define KLIM_THREADS     (KMAX_THREADS / 4)
#define KLIM_CHANNELS    (KMAX_CHANNELS / 4)
#define KLIM_CONNECTIONS (KMAX_CONNECTIONS / 4)
#define KLIM_TIMERS      (KMAX_TIMERS / 4)
#define KLIM_MUTEXES     (KMAX_MUTEXES / 4)
#define KLIM_CONDS       (KMAX_CONDS / 4)
#define KLIM_SEMS        (KMAX_SEMS / 4)
#define KLIM_NAMES       (KMAX_NAMES / 4)
// The part of each pool only privileged processes may take (proc_may_take, docs/hostile.md).
#define KLIM_RESERVE(pool) ((pool) / 8 > 0 ? (pool) / 8 : 1)
#define KNAME_MAX        16

#define TICK_HZ          1000u
#define RR_TIMESLICE     4u       // ticks

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int  kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int  ksnprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void kputs_raw(const char *s, size_t len);
_Noreturn void kpanic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define KASSERT(cond, msg) do { if (unlikely(!(cond))) kpanic("assert: %s (%s:%d)", msg, __FILE__, __LINE__); } while (0)

size_t kstrlcpy(char *dst, const char *src, size_t size);
int    kstrncmp(const char *a, const char *b, size_t n);
void  *kmemcpy(void *dst, const void *src, size_t n);
void  *kmemset(void *dst, int c, size_t n);
// Standard names (klib.c), for portable code built into the kernel.
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
char *strchr(const char *s, int c);

#endif
