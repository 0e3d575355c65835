// SPDX-License-Identifier: MIT
// tflood -A respawn=T (tf_respawn.c): threads created one after another, each on a stack of
// its own, each checking that the kernel gave it a user-event ring of its own.
#ifndef TF_RESPAWN_H
#define TF_RESPAWN_H

#include <stdbool.h>
#include <stdint.h>

// Runs T threads in turn (each joined before the next starts), each inserting n user events
// (payload (k << 24) | sequence, k = 1..T), created by `spawners` threads at once (1: the
// caller), each after a thread that inserts nothing when idle_between; prints one line per
// thread and a summary. Returns how many threads had no ring of their own (0: all did), or
// -1 when the board has no per-thread rings or register to tell.
int tf_respawn(uint32_t threads, uint32_t n, uint32_t spawners, bool idle_between);

#endif
