// SPDX-License-Identifier: MIT
// kevweb's view of the trace: the live reader's events fed to the analysis model (kx_stats.h,
// the one kevstat and kevreport print) and turned into the page's messages, JSON on one line:
//   snap   everything a page needs to start (or start again after a drop): the threads, the
//          aggregates over the whole run, the timeline's window, the recent task instances
//          and misses;
//   upd    what changed since the last update: new threads, threads whose CPU time, state or
//          priority changed, timeline records, instances and misses, and the aggregates;
//   end    the trace ended: the model finished (kx_stats_finish), each thread's CPU time and
//          its executed share (kx_exec_time) as kevstat gives them.
// The head's "turns" says an emulator ran the CPUs in turn: a thread's executed share is then
// less than its CPU time (kx_stats.h), and the page shows both.
// Memory is bounded whatever the run's length: the timeline is a window of WF_WINDOW records
// (the newest), instances and late ones a window of WF_RECENT each; aggregates cover all of
// it; the model forgets what it keeps only for its end-of-trace listings once shown
// (kx_stats_forget: the verdicts over the whole run are kevreport's, over the finished file).
// Records are numbered (rec_from: the first one's number): an update may repeat the last ones
// a snapshot gave, and the page skips those. Times are cycles since boot, as kevstat's.
// Single-threaded.
#ifndef KEVWEB_WEB_FEED_H
#define KEVWEB_WEB_FEED_H

#include <stddef.h>
#include <stdint.h>
#include <kevhost/kev_live.h>
#include <kevhost/kx_task.h>

#define WF_WINDOW 30000u   // timeline records kept (and sent to a new page)
#define WF_RECENT 200u     // instances and misses kept for a new page

struct web_feed;

// A view; timing: the --deadline and --period rules (may be NULL). NULL out of memory.
struct web_feed *web_feed_new(const struct kx_timing_set *timing);
void web_feed_free(struct web_feed *f);
// The consumer to attach to the live reader, and the reader's counts for the loss line.
struct kev_live_consumer web_feed_consumer(struct web_feed *f);
void web_feed_counts(struct web_feed *f, const struct kev_live_counts *c);
// The update since the last one, as a whole message in *out (malloc'd): its length, 0 when
// nothing changed.
size_t web_feed_update(struct web_feed *f, char **out);
// The input is a finished capture (read whole, kev_live_whole): the task instances are judged
// once, at its end, by the model over the whole file (kevstat's verdicts), not as each ends.
void web_feed_whole(struct web_feed *f);
// A snapshot message (for web_server's snap callback).
size_t web_feed_snapshot(void *f, char **out);
// The segment ended (the end message is waiting in web_feed_update).
int web_feed_ended(const struct web_feed *f);
// The input has ended (a header or not): a page still without a trace says so.
void web_feed_input_end(struct web_feed *f);
// The report of the finished trace is served at url: said in the next update and snapshots.
void web_feed_report(struct web_feed *f, const char *url, const char *why);

#endif
