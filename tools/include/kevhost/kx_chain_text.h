// SPDX-License-Identifier: MIT
// The wait chains (kx_chain.h) as text, for kevstat (kx_chain_text.c).
#ifndef TOOLS_KX_CHAIN_TEXT_H
#define TOOLS_KX_CHAIN_TEXT_H

#include <kevhost/kx_stats.h>

// The "chains" section: each waiter whose worst wait reached its threshold (kx_wait_threshold):
// its waits, their total, the time attributed to each root, its worst wait as a sentence.
void kx_chain_print(const struct kx_stats *s);
// The deadlock cycles (part of the "waits" section).
void kx_deadlock_print(const struct kx_stats *s);
// Thread th's worst wait reached its threshold: it is listed (kevstat, the report).
int kx_cwaiter_listed(const struct kx_stats *s, int th);
// "relay/client waited 7503.160 us: its send to relay/server, which waited 7501.120 us on
// mutex 1 held by relay/main; attributed to relay/main 7501.120 us, ..." (len: its length).
const char *kx_cwait_text(const struct kx_stats *s, const struct kx_cwait *w, uint64_t len,
                          char *buf, size_t n);
// A link from its waiter's side: "on mutex 1 held by X", "on its send to X".
const char *kx_link_text(const struct kx_stats *s, const struct kx_link *l, char *buf, size_t n);
// What a link waits on: "mutex 1", "semaphore 7", "a message".
const char *kx_link_obj(const struct kx_stats *s, const struct kx_link *l, char *buf, size_t n);
// A chain on one line: "relay/client -[reply]-> relay/server -[mutex 1]-> relay/main" ("?": a
// thread not known; " (a cycle)", " ... (cut)" as it ends).
const char *kx_chain_line(const struct kx_stats *s, const struct kx_chain *c, char *buf, size_t n);
// A root as the tools name it (kx_chain_root): a thread's label; an input's "interrupt 5", "a
// timer (the tick)", "input not come by the end of the trace"; -1 "no thread known (a cycle,
// or a holder unknown)".
const char *kx_chain_root_name(const struct kx_stats *s, int root, char *buf, size_t n);
// A thread's label, "a thread not known" for -1.
const char *kx_chain_thread(const struct kx_stats *s, int th, char *buf, size_t n);

#endif
