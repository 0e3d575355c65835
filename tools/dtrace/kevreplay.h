// SPDX-License-Identifier: MIT
// Running a D program over a captured trace (dtrace -i trace.kev).
#ifndef DTRACE_KEVREPLAY_H
#define DTRACE_KEVREPLAY_H

#include <d/dcons.h>
#include <d/dvm.h>
#include <signal.h>
#include <stdint.h>

/* kev_replay: fires BEGIN at the first event's time, then the probe of every event in the
 * capture (and tick-/profile- probes as capture time passes), reading buffers every switchrate
 * of capture time; stops at the end of the file, on exit(), a filled buffer or *stop. Does not
 * fire END, but sets end_ctx's times (when not NULL) to the last event's. Returns 0, 1
 * when the file is damaged or truncated (replayed up to there, the offset printed), or -1
 * after printing why the file could not be read. */
int kev_replay(const char *path, struct dvm_state *st, struct dcons *cons,
               uint64_t switchrate_ns, unsigned ncpus, unsigned cpu_only,
               volatile sig_atomic_t *stop, struct dvm_ctx *end_ctx);
/* kev_capture_ncpus: the CPUs a capture recorded (its trailer's count, else its header's),
 * 1 .. DVM_MAXCPU; 1 when the file cannot be read (kev_replay then says why).
 * cpu_only (kev_replay): N + 1 fires only CPU N's events and profile-N there (-x cpu=N);
 * BEGIN, END, ERROR and tick-N as always; 0: every CPU. */
unsigned kev_capture_ncpus(const char *path);
/* kev_replay_pid_max: during kev_replay, the highest pid the capture has created a process
 * with so far (its snapshot's processes included): the kernel's next_pid is one more. */
uint32_t kev_replay_pid_max(void);
/* kev_live_source: name is a live source for -i: standard input ("-"), HOST:PORT, a pipe or a
 * device, a file holding the tracelogger's stream, or (follow) any file, read as it grows. */
int kev_live_source(const char *name, int follow);
/* kev_live_open: opens it and reads until the trace's header has come: the CPUs it names in
 * *ncpus, the bytes read in *pre (malloc'd, *npre of them) to replay from. 0, or -1 after saying
 * why (it cannot be opened, or ended before a header). */
struct kev_input;
int kev_live_open(const char *name, int follow, struct kev_input *in, uint8_t **pre,
                  size_t *npre, unsigned *ncpus);
/* kev_replay_live: the same over a live source: in (kev_input.h) read through l (kev_live.h,
 * fresh) from the bytes pre[0..npre) already read on; events replayed as they arrive, timers
 * (tick-N) firing as capture time passes, flush( ) called after each read so that what the
 * program printed shows at once. Stops at the trace's end, a board reset (a new trace), exit( ),
 * a filled buffer or *stop. Returns as kev_replay (-1: no trace arrived). */
struct kev_live;
int kev_replay_live(struct kev_live *l, struct kev_input *in, const uint8_t *pre, size_t npre,
                    struct dvm_state *st, struct dcons *cons, uint64_t switchrate_ns,
                    unsigned ncpus, unsigned cpu_only, volatile sig_atomic_t *stop,
                    struct dvm_ctx *end_ctx, void (*flush)(void));

#endif
