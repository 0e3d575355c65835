// SPDX-License-Identifier: MIT
// The base of the analysis model every host tool over a .kev links (tools/analysis/): loading a .kev
// file through the shared decoder (trace/kev_decode.c; nothing here parses the format) and a
// small model of the system the tools all need: a table of threads with names and priorities,
// the thread running on each CPU (and, mid-switch, the one whose context the kernel is in),
// and whether the START snapshot is being replayed.
// The model is updated by kx_model_update() after a tool has looked at an event, so a tool
// sees the state *before* the event (the previous thread of a context switch, for example).
// Single-threaded; all state is in caller-owned structs (large: keep them static or on the heap).
#ifndef TOOLS_KX_H
#define TOOLS_KX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <trace/kev_decode.h>

// ---- files -------------------------------------------------------------------------------------
struct kx_file {
    uint8_t *data;
    size_t len;
    int mapped;           // data is mmap'd (else malloc'd)
    struct kev_reader *r; // malloc'd
};

// Read path and parse its header; on failure print "tool: path: reason" and return -1.
int kx_open(const char *tool, const char *path, struct kx_file *f);
void kx_close(struct kx_file *f);
// Decode every event, calling cb(user, r, e); on a decoding error print the message and
// return 1 (the events before the problem have been delivered), else 0.
int kx_decode(const char *tool, struct kx_file *f, kev_cb cb, void *user);
// The same, with events delivered in time order across CPUs (kx_sort.c): for the tools that
// follow threads and messages from one CPU to another. One CPU: the same as kx_decode.
int kx_decode_sorted(const char *tool, struct kx_file *f, kev_cb cb, void *user);
// The same events one at a time, for a reader that pulls (kevsql's cursors): kx_src_next gives
// 1 with *e (its words valid until the next call), 0 at the end, else the decoder's error
// (kev_error(r)) or -1 out of memory; the events before an error were given. r: opened with
// kev_open, not yet decoded. kx_src_new returns NULL out of memory.
struct kx_src;
struct kx_src *kx_src_new(struct kev_reader *r);
int kx_src_next(struct kx_src *s, struct kev_event *e);
void kx_src_free(struct kx_src *s);

// ---- the model ---------------------------------------------------------------------------------
#define KX_MAX_THREADS 4096u
#define KX_HASH        8192u // power of two, > 2 * KX_MAX_THREADS
#define KX_STATE_UNKNOWN 255u
#define KX_NO_THREAD   (-1)
#define KX_MAX_PID     1024u // parents are remembered for pids below this

struct kx_thread {
    uint32_t pid, tid;
    char name[KEV_NAME_MAX]; // thread name ("" when unknown)
    int renamed;             // ThreadName changed a name it had (a main thread then shows it)
    char comm[KEV_NAME_MAX]; // process name ("" when unknown)
    int prio;                // -1 when unknown (from wide-mode state events and PRIO_CHANGE)
    unsigned state;          // last KEV_TH_* state, or KX_STATE_UNKNOWN
    int cpu;                 // CPU it runs on, or -1
    int last_cpu;            // CPU it runs or last ran on, -1 before its first run
};

// A process as the kernel holds it at the moment (its p->ppid and p->nthreads), which a reader
// showing the process as the kernel would then (dtrace -i's curpsinfo, progenyof) takes; the
// parent that created it stays in kx_model's ppid[].
struct kx_proc {
    uint32_t parent;         // its parent while that parent lives (0 once it ended: the kernel's
                             // proc_last_thread_gone leaves its children none), 0 when unknown
    int32_t nlwp;            // its threads created and not yet DEAD (the first counted at the
                             // process's CREATE, as the kernel's; the snapshot's at their CREATEs)
    uint8_t known;           // its CREATE or a thread's seen
    uint8_t created;         // its CREATE seen
    uint8_t first_pending;   // its first thread counted at its CREATE, its THCREATE not yet seen
};

struct kx_model {
    const struct kev_reader *r;
    struct kx_thread th[KX_MAX_THREADS];
    unsigned nth;
    int32_t hash[KX_HASH];    // thread index + 1, 0 = empty
    int cur[KEV_MAX_CPUS];    // running thread index per CPU, or KX_NO_THREAD
    int prev[KEV_MAX_CPUS];   // thread that left the CPU since its last RUNNING event, or -1
    // the thread the CPU's last ONCPU named, or -1: the kernel runs in its context (the entry
    // it made, the interrupts it took) until its next exit into another thread, the next ONCPU
    int oncpu[KEV_MAX_CPUS];
    unsigned irq[KEV_MAX_CPUS];        // irq + 1 while an interrupt (or its handler) runs, else 0
    uint8_t irq_how[KEV_MAX_CPUS];     // 1 entered by INT_ENTER, 2 by a bare HANDLER_ENTER
    int in_snapshot;          // between SYSTEM SNAPSHOT start and end
    uint64_t first_t, last_t; // first and last event time (cycles) seen so far
    int have_t;
    uint32_t ppid[KX_MAX_PID]; // parent of each process from PROCCREATE events (0 unknown)
    struct kx_proc proc[KX_MAX_PID]; // each process as the kernel holds it now
};

// Start a model for r (after kev_open): threads named in the system page are added.
void kx_model_init(struct kx_model *m, const struct kev_reader *r);
// The same on a model already zero (calloc'd: its untouched pages stay unmapped).
void kx_model_setup(struct kx_model *m, const struct kev_reader *r);
// Index of thread (pid, tid), added when new; KX_NO_THREAD when the table is full.
int kx_thread(struct kx_model *m, uint32_t pid, uint32_t tid);
// Index of thread (pid, tid) when the model has it, else KX_NO_THREAD (nothing added).
int kx_thread_find(const struct kx_model *m, uint32_t pid, uint32_t tid);
// Apply e (any class) to the model. The START snapshot's state events are all written on the
// CPU that took it: a thread it lists as running is placed by the snapshot's per-CPU entries
// (SYSTEM SNAPSHOT 2 | cpu << 8, who: that CPU runs who; the kernel writes none for a CPU
// running its idle thread), an idle thread it lists as running on its own CPU (the kernel
// makes one per CPU, tid k + 1 for CPU k, each pinned there), any other on the snapshot's CPU.
void kx_model_update(struct kx_model *m, const struct kev_event *e);
// The CPU a snapshot entry names (SYSTEM SNAPSHOT 2 | cpu << 8), -1 when e is none.
int kx_snapshot_cpu(const struct kev_event *e);
// Parent of process pid as PROCCREATE gave it, 0 when unknown.
uint32_t kx_ppid(const struct kx_model *m, uint32_t pid);
// Process pid as the kernel holds it now (struct kx_proc), NULL when none of its events came.
const struct kx_proc *kx_proc(const struct kx_model *m, uint32_t pid);
// A thread as every tool names it: "comm/name", "comm/tid", "name" or "pidP/T" into buf; a CPU's
// idle thread (named "idle", tid k + 1 on CPU k) with its CPU: "idle (CPU 2)".
const char *kx_label(const struct kx_model *m, int idx, char *buf, size_t n);
// The same without an idle thread's CPU (a track that stands for every CPU's idle thread).
const char *kx_label_plain(const struct kx_model *m, int idx, char *buf, size_t n);
// The CPU of a CPU's idle thread (named "idle", tid k + 1 for CPU k), -1 for any other thread.
int kx_idle_cpu(const struct kx_model *m, int idx);
// The thread whose context cpu runs in: the one running there (its RUNNING seen, no state since);
// between a thread's leaving and the next one's RUNNING (the switch: the kernel ends the entry,
// or takes an interrupt, in the context it was in), the thread the CPU's last ONCPU named;
// KX_NO_THREAD when neither is known (before the CPU's first RUNNING or ONCPU, or mid-switch in
// a capture without ONCPU events).
int kx_cpu_thread(const struct kx_model *m, unsigned cpu);
// Thread the event belongs to: the pid/tid in a thread event, else the CPU's (kx_cpu_thread).
int kx_event_thread(struct kx_model *m, const struct kev_event *e);

// ---- names and small helpers -------------------------------------------------------------------
// Kernel-call name from the decoder's table, or "kc<N>" in buf.
const char *kx_kcall_name(unsigned call, char *buf, size_t n);
// The same as the API names it, from the entry's arguments where QNX gives two calls one
// number (kev_kcall_api_name: CondSignal with `all` is CondBroadcast).
const char *kx_kcall_api_name(unsigned call, const uint32_t *arg, unsigned nargs, char *buf,
                              size_t n);
// Thread idx is the capture's own logger (its process is named "tracelogger"): its kernel
// calls (TraceEvent's polling, EAGAIN while no buffer is ready) are not the program's.
int kx_is_logger(const struct kx_model *m, int idx);
// A user event's data word k, 0 past them: the USER row's `data` field is the words the program
// gave (INSERTSUSEREVENT's two, INSERTCUSEREVENT's buffer), in order.
static inline uint32_t kx_user_word(const struct kev_event *e, unsigned k)
{
    return k < e->nw ? e->w[k] : 0u;
}
// A user event's payload is a printable NUL-terminated string (copied into buf).
int kx_user_string(const struct kev_reader *r, const struct kev_event *e, char *buf, size_t n);
// A user event as every tool shows it: "NAME: value" when its process registered the code
// (trace/kev_userreg.h; a registration itself, code KEV_USER_REGISTRY, is added to g), value
// its text, its words through the registered format, else its words in hex. g may be NULL.
struct kev_userreg;
void kx_user_text(const struct kev_reader *r, struct kev_userreg *g, uint32_t pid,
                  const struct kev_event *e, int with_name, char *out, size_t n);
// The header's BOOT_DATE as UTC seconds since the epoch, 0 when absent or not understood.
int64_t kx_boot_time(const struct kev_reader *r);
// A length of time as the tools' options take it: "250us", "1.5ms", "2s", "800ns" (a bare
// number: microseconds) into *ns; -1 when it is not one.
int kx_time_arg(const char *arg, uint64_t *ns);
// Seconds from cycles.
double kx_seconds(const struct kev_reader *r, uint64_t cycles);
// Index of the power-of-two bucket of v (0 for v == 0, else 1 + floor(log2 v)).
unsigned kx_log2_bucket(uint64_t v);

#endif
