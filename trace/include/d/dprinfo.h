// SPDX-License-Identifier: MIT
// Threads and processes as D's translated types show them (docs/d-probes.md, "psinfo_t,
// lwpsinfo_t and cpuinfo_t"): the members of args[0], args[1], curlwpsinfo and curpsinfo that
// need more than the probe's own words (a thread's state, the kind of object it sleeps on, its
// flags and CPU; its process's name, parent and thread count). The engine asks its host for
// the thread by `who` (pid << 16 | tid, the word every thread probe carries): the kernel reads
// its thread and process tables (kernel/kdtrace.c), dtrace -i the thread table the capture's
// events build (tools/dtrace/kevreplay.c), so that a script reads the same values live and
// over the capture. The engine maps this kernel's states onto Solaris's (vm.c dvm_prinfo):
//
//   kernel state (uapi/kstate.h)              pr_state  pr_sname  pr_stype
//   RUNNING                                   SONPROC   'O'       SOBJ_NONE
//   READY                                     SRUN      'R'       SOBJ_NONE (a wakeup's:
//                                                                 the state it left)
//   SEND, RECEIVE, REPLY (message passing)    SSLEEP    'S'       SOBJ_SHUTTLE
//   MUTEX (a mutex with priority inheritance) SSLEEP    'S'       SOBJ_USER_PI
//   CONDVAR, NANOSLEEP, JOIN, INTR            SSLEEP    'S'       SOBJ_CV
//   SEM                                       SSLEEP    'S'       SOBJ_SEMA
//   STOPPED                                   SSTOP     'T'       SOBJ_NONE
//   DEAD (a zombie until joined)              SZOMB     'Z'       SOBJ_NONE
//
// Solaris's values (illumos sys/proc.h, sys/sobject.h, sys/procfs.h), which the compiler
// defines as constants (procinfo.c): SSLEEP 1, SRUN 2, SZOMB 3, SSTOP 4, SIDL 5, SONPROC 6,
// SWAIT 7; SOBJ_NONE 0, SOBJ_MUTEX 1, SOBJ_RWLOCK 2, SOBJ_CV 3, SOBJ_SEMA 4, SOBJ_USER 5,
// SOBJ_USER_PI 6, SOBJ_SHUTTLE 7.
#ifndef D_DPRINFO_H
#define D_DPRINFO_H

#include <stdint.h>

// A thread as the host knows it. A field the host does not know is left as the engine zeroed it.
struct dvm_lwpinfo {
    uint8_t state;      // its state (uapi/kstate.h numbers)
    uint8_t left;       // the state its last change left (a wakeup's: the one it slept in)
    uint8_t cpu;        // the CPU it runs on, or last ran on
    uint8_t idle;       // 1: a CPU's idle thread
    int32_t ppid;       // its process's parent (0: none, or the kernel)
    int32_t nlwp;       // its process's live threads
    const char *fname;  // its process's name ("kernel" for pid 0); NULL: not known
};

// dvm_lwpinfo: fills *out for thread `who`, or for process who >> 16 when who's tid is 0
// (then only ppid, nlwp and fname count); 0, or -1 when there is no such thread or process.
// Called in a firing (the engine's rules: no lock taken, no fault). Defined by the engine's
// host (kernel/kdtrace.c, tools/dtrace/kevreplay.c); the engine's own is weak and knows
// nothing (every member reads 0, a name ""). A function, not a hook variable as dvm_uread: a
// board's kernel RAM has no word to spare for it.
int dvm_lwpinfo(uint32_t who, struct dvm_lwpinfo *out);

// dvm_ppid: process pid's parent in *ppid (0: none, or the kernel), for progenyof( ); 0, or -1
// when the host knows no such process. The engine's own reads dvm_lwpinfo; the host's dtrace
// running a program itself (no capture) reads the host's processes, whose pids a who cannot hold.
int dvm_ppid(int32_t pid, int32_t *ppid);

// The members DIF_S_PRINFO(member, who) reads (an int) ...
enum dvm_prinfo_member {
    DPR_STATE = 0,      // pr_state (SSLEEP...; 0: no such thread)
    DPR_SNAME,          // pr_sname ('S'...; '?': no such thread)
    DPR_STYPE,          // pr_stype (SOBJ_*)
    DPR_FLAG,           // lwpsinfo_t pr_flag (PR_IDLE | PR_ISSYS for the idle threads,
                        // PR_ISSYS for the kernel's, PR_STOPPED for a stopped thread)
    DPR_ONPRO,          // pr_onpro: the CPU it runs or last ran on
    DPR_PPID,           // psinfo_t pr_ppid
    DPR_NLWP,           // psinfo_t pr_nlwp
    DPR_RSTATE,         // pr_state of the kernel state `who` (sched:::off-cpu's arg3)
    DPR_RSNAME,         // pr_sname of the kernel state `who`
    DPR_COUNT
};
// ... and DIF_S_PRSTR(member, who) (a string).
enum dvm_prstr_member {
    DPRS_FNAME = 0,     // psinfo_t pr_fname, pr_psargs: the process's name ("" unknown)
    DPRS_CLNAME,        // lwpsinfo_t pr_clname: "SYS" for the kernel's threads, "RT" for a
                        // program's (FIFO and round-robin are Solaris's real-time class)
    DPRS_COUNT
};

// Solaris's constants the mapping uses (the compiler's are procinfo.c's, the same values).
enum { DPR_SSLEEP = 1, DPR_SRUN = 2, DPR_SZOMB = 3, DPR_SSTOP = 4, DPR_SONPROC = 6 };
enum { DPR_SOBJ_CV = 3, DPR_SOBJ_SEMA = 4, DPR_SOBJ_USER_PI = 6, DPR_SOBJ_SHUTTLE = 7 };
#define DPR_PR_STOPPED 0x00000001
#define DPR_PR_IDLE    0x00000400
#define DPR_PR_ISSYS   0x00001000

#endif
