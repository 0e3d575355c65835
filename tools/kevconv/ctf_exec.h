// SPDX-License-Identifier: MIT
// The executed share of each thread's runs, for the CTF's sched_switch (its event context's
// prev_exec_cycles: of the run the switch ends, what the thread's CPU executed). The analysis
// model computes it (kx_stats: kx_state_row.exec, kx_stats.h's executed share, the CPUs run in
// turn by an emulator; else the run's length): fed in time order, it gives each run as it ends.
// The CTF encoder writes a CPU's events in the file's order, so kev2ctf runs the model over the
// whole file first (ctf_exec_file); kevlive feeds it the live reader's events, in time order,
// each before the encoder sees it (a run has ended before the switch that follows it), and
// keeps only each thread's last runs.
#ifndef TOOLS_CTF_EXEC_H
#define TOOLS_CTF_EXEC_H

#include <stdint.h>
#include <kevhost/kx.h>

struct ctf_exec;

// Over r's capture; keep: runs kept per thread (0: all of them). NULL out of memory.
struct ctf_exec *ctf_exec_new(const struct kev_reader *r, unsigned keep);
void ctf_exec_free(struct ctf_exec *x);
// One event, in time order.
void ctf_exec_event(struct ctf_exec *x, const struct kev_event *e);
// The runs of every event of f, read in time order by a reader of its own (a damaged file: the
// events before the damage); NULL out of memory.
struct ctf_exec *ctf_exec_file(const struct kx_file *f);
// Of the run of thread (pid, tid) that ended last at or before t, what its CPU executed
// (cycles); 0 when none is known.
uint64_t ctf_exec_run(const struct ctf_exec *x, uint32_t pid, uint32_t tid, uint64_t t);

#endif
