// SPDX-License-Identifier: MIT
// What D's translated types mean on this system: the members of psinfo_t, lwpsinfo_t and
// cpuinfo_t as curpsinfo, curlwpsinfo, curcpu and the probes' args[] give them, and the
// constants illumos's /usr/lib/dtrace/*.d define for them (procfs.d, sched.d; the values are
// Solaris's). Tables the code generator (cg_args.c) reads, no code of its own. A member is a
// built-in variable of the firing (pid, tid, the thread's priority), a field of the probe's own
// word (a thread's who, pid << 16 | tid; a process id; a CPU), a member the engine looks up by
// that who (its state, the object it sleeps on, its process's name: d/dprinfo.h, the same live
// and over a capture), a constant this kernel can state honestly (no users: uid 0),
// D_XLATE_NOCONV where DTrace's own translator (procfs.d) defines no conversion either, or
// D_UNSUPPORTED where DTrace has one and this kernel has nothing to say.
#include "dcc_impl.h"
#include <d/dprinfo.h>
#include <d/dprobes.h>

#define I32 { .kind = DIF_TYPE_INT, .size = 4, .sign = 1 }
#define U32 { .kind = DIF_TYPE_INT, .size = 4, .sign = 0 }
#define U64 { .kind = DIF_TYPE_INT, .size = 8, .sign = 0 }
#define I8  { .kind = DIF_TYPE_INT, .size = 1, .sign = 1 }
#define I16 { .kind = DIF_TYPE_INT, .size = 2, .sign = 1 }
#define STR { .kind = DIF_TYPE_STR }
#define END { NULL, 0, 0, U32 }

/* psinfo_t members DTrace's translator defines that have no value here, and those it leaves
 * out (procfs.d: pr_size, pr_rssize...), shared by curpsinfo and args[] */
#define PS_REST \
    { "pr_ttydev", DCC_PM_UNSUP, 0, U64 }, { "pr_argc", DCC_PM_UNSUP, 0, I32 }, \
    { "pr_argv", DCC_PM_UNSUP, 0, U64 }, { "pr_envp", DCC_PM_UNSUP, 0, U64 }, \
    { "pr_dmodel", DCC_PM_UNSUP, 0, I8 }, { "pr_taskid", DCC_PM_UNSUP, 0, I32 }, \
    { "pr_projid", DCC_PM_UNSUP, 0, I32 }, { "pr_poolid", DCC_PM_UNSUP, 0, I32 }, \
    { "pr_zoneid", DCC_PM_UNSUP, 0, I32 }, { "pr_start", DCC_PM_UNSUP, 0, U64 }, \
    { "pr_flag", DCC_PM_NOCONV, 0, I32 }, { "pr_size", DCC_PM_NOCONV, 0, U64 }, \
    { "pr_rssize", DCC_PM_NOCONV, 0, U64 }, { "pr_pctcpu", DCC_PM_NOCONV, 0, U32 }, \
    { "pr_pctmem", DCC_PM_NOCONV, 0, U32 }, { "pr_time", DCC_PM_NOCONV, 0, U64 }, \
    { "pr_ctime", DCC_PM_NOCONV, 0, U64 }, { "pr_wstat", DCC_PM_NOCONV, 0, I32 }, \
    { "pr_nzomb", DCC_PM_NOCONV, 0, I32 }, { "pr_contract", DCC_PM_NOCONV, 0, I32 }, \
    { "pr_lwp", DCC_PM_NOCONV, 0, U64 }, \
    /* no users or groups: everything runs as 0 */ \
    { "pr_uid", DCC_PM_CONST, 0, U32 }, { "pr_euid", DCC_PM_CONST, 0, U32 }, \
    { "pr_gid", DCC_PM_CONST, 0, U32 }, { "pr_egid", DCC_PM_CONST, 0, U32 }

/* lwpsinfo_t members shared by curlwpsinfo and args[]: not bound to a CPU or a processor set
 * (PBIND_NONE, PS_NONE), one locality group; and those procfs.d's translator leaves out */
#define LWP_REST \
    { "pr_bindpro", DCC_PM_CONST, (uint64_t)-1, I32 }, \
    { "pr_bindpset", DCC_PM_CONST, (uint64_t)-1, I32 }, { "pr_lgrp", DCC_PM_CONST, 0, I32 }, \
    { "pr_start", DCC_PM_UNSUP, 0, U64 }, \
    { "pr_nice", DCC_PM_NOCONV, 0, I8 }, { "pr_oldpri", DCC_PM_NOCONV, 0, I8 }, \
    { "pr_cpu", DCC_PM_NOCONV, 0, I8 }, { "pr_pctcpu", DCC_PM_NOCONV, 0, U32 }, \
    { "pr_time", DCC_PM_NOCONV, 0, U64 }, { "pr_name", DCC_PM_NOCONV, 0, STR }

/* curpsinfo: the process firing the probe */
static const struct dcc_procmember psinfo[] = {
    { "pr_nlwp", DCC_PM_BUILTIN, DIF_B_NLWP, I32 },
    { "pr_pid", DCC_PM_BUILTIN, DIF_B_PID, I32 },
    { "pr_ppid", DCC_PM_BUILTIN, DIF_B_PPID, I32 },
    /* no process groups or sessions: each process leads its own */
    { "pr_pgid", DCC_PM_BUILTIN, DIF_B_PID, I32 },
    { "pr_sid", DCC_PM_BUILTIN, DIF_B_PID, I32 },
    { "pr_addr", DCC_PM_BUILTIN, DIF_B_PID, U64 },   /* as args[1]->pr_addr: the pid */
    /* (execname: at proc:::start and proc:::exec the parent's, as a forked child's) */
    { "pr_fname", DCC_PM_BUILTIN, DIF_B_EXECNAME, STR },
    { "pr_psargs", DCC_PM_BUILTIN, DIF_B_EXECNAME, STR },
    PS_REST, END,
};

/* curlwpsinfo: the thread firing the probe; its who is pid << 16 | tid */
static const struct dcc_procmember lwpsinfo[] = {
    { "pr_flag", DCC_PM_INFO, DPR_FLAG, I32 },
    { "pr_lwpid", DCC_PM_BUILTIN, DIF_B_TID, I32 },
    { "pr_addr", DCC_PM_FIELD, DCC_F_WHO, U64 },
    { "pr_wchan", DCC_PM_CONST, 0, U64 },
    { "pr_stype", DCC_PM_INFO, DPR_STYPE, I8 },
    /* at sched:::off-cpu the state the thread goes off in (its arg3), else its state now */
    { "pr_state", DCC_PM_INFO, DPR_STATE, I8 }, { "pr_sname", DCC_PM_INFO, DPR_SNAME, I8 },
    { "pr_syscall", DCC_PM_CONST, 0, I16 },
    { "pr_pri", DCC_PM_BUILTIN, DIF_B_PRIO, I32 },
    { "pr_onpro", DCC_PM_BUILTIN, DIF_B_CPU, I32 },
    { "pr_clname", DCC_PM_STR, DPRS_CLNAME, STR },
    LWP_REST, END,
};

/* cpuinfo_t (sched.d): curcpu, and enqueue/dequeue's args[2]; no processor sets, chips or
 * locality groups to tell apart: PS_NONE, chip 0, group 0 */
#define CPU_REST \
    { "cpu_pset", DCC_PM_CONST, (uint64_t)-1, I32 }, { "cpu_chip", DCC_PM_CONST, 0, I32 }, \
    { "cpu_lgrp", DCC_PM_CONST, 0, I32 }, { "cpu_info", DCC_PM_UNSUP, 0, U64 }
static const struct dcc_procmember cpuinfo[] = {
    { "cpu_id", DCC_PM_BUILTIN, DIF_B_CPU, I32 }, CPU_REST, END,
};

/* dcc_procinfo: the members of curpsinfo ("psinfo_t"), curlwpsinfo ("lwpsinfo_t") or curcpu
 * ("cpuinfo_t"), or NULL if var is none of them; *type_name names the type for messages. */
const struct dcc_procmember *dcc_procinfo(const char *var, const char **type_name)
{
    if (!strcmp(var, "curpsinfo")) {
        *type_name = "psinfo_t";
        return psinfo;
    }
    if (!strcmp(var, "curlwpsinfo")) {
        *type_name = "lwpsinfo_t";
        return lwpsinfo;
    }
    if (!strcmp(var, "curcpu")) {
        *type_name = "cpuinfo_t";
        return cpuinfo;
    }
    return NULL;
}

/* The probes' args[] (docs/d-probes.md): each thread probe's arg0 is the thread's who, so its
 * args[0] is that thread's lwpsinfo_t and args[1] its process's psinfo_t; proc:::create's
 * args[0] the child's psinfo_t (arg0 its pid); enqueue/dequeue's args[2] the cpuinfo_t of the
 * CPU whose run queue it is (arg3); proc:::exec's args[0] the program's name (a string). */
static const struct dcc_procmember args_lwp[] = {
    { "pr_lwpid", DCC_PM_FIELD, DCC_F_TID, I32 },
    { "pr_pid", DCC_PM_FIELD, DCC_F_PID, I32 },  /* ours: the thread's process */
    { "pr_addr", DCC_PM_FIELD, DCC_F_WHO, U64 },
    /* change-pri fires before the change, as Solaris's: its args[0]->pr_pri is the old
     * priority, its arg3 (its arg2 is the new, Solaris's args[2]) */
    { "pr_pri", DCC_PM_FIELD, DCC_F_PRI, I32 },
    { "pr_flag", DCC_PM_INFO, DPR_FLAG, I32 },
    { "pr_state", DCC_PM_INFO, DPR_STATE, I8 }, { "pr_sname", DCC_PM_INFO, DPR_SNAME, I8 },
    { "pr_stype", DCC_PM_INFO, DPR_STYPE, I8 }, { "pr_onpro", DCC_PM_INFO, DPR_ONPRO, I32 },
    { "pr_clname", DCC_PM_STR, DPRS_CLNAME, STR },
    /* the object it waits on is in the block-* probes' arg3, not in the thread's words */
    { "pr_wchan", DCC_PM_UNSUP, 0, U64 }, { "pr_syscall", DCC_PM_UNSUP, 0, I16 },
    LWP_REST, END,
};

static const struct dcc_procmember args_ps[] = {
    { "pr_pid", DCC_PM_FIELD, DCC_F_PID, I32 },
    { "pr_addr", DCC_PM_FIELD, DCC_F_PID, U64 },
    { "pr_pgid", DCC_PM_FIELD, DCC_F_PID, I32 }, { "pr_sid", DCC_PM_FIELD, DCC_F_PID, I32 },
    { "pr_ppid", DCC_PM_INFO, DPR_PPID, I32 }, { "pr_nlwp", DCC_PM_INFO, DPR_NLWP, I32 },
    { "pr_fname", DCC_PM_STR, DPRS_FNAME, STR }, { "pr_psargs", DCC_PM_STR, DPRS_FNAME, STR },
    PS_REST, END,
};

static const struct dcc_procmember args_cpu[] = {
    { "cpu_id", DCC_PM_FIELD, DCC_F_CPU, I32 }, CPU_REST, END,
};

const struct dcc_procmember *dcc_argkind_members(char kind, const char **type_name)
{
    switch (kind) {
    case DCC_ARG_LWP: *type_name = "lwpsinfo_t"; return args_lwp;
    case DCC_ARG_PS: case DCC_ARG_PSPID: *type_name = "psinfo_t"; return args_ps;
    case DCC_ARG_CPU: *type_name = "cpuinfo_t"; return args_cpu;
    default: return NULL;
    }
}

/* The translated args[] of each probe (d/dprobes.h ids), Solaris's where it has them. */
char dcc_probe_argkind(uint32_t id, unsigned k)
{
    static const char lwp[] = { DCC_ARG_LWP, DCC_ARG_PS };
    switch (id) {
    case DPROBE_SCHED_ENQUEUE: case DPROBE_SCHED_DEQUEUE:
        return k < 2 ? lwp[k] : k == 2 ? DCC_ARG_CPU : 0;
    case DPROBE_SCHED_ONCPU: case DPROBE_SCHED_OFFCPU: case DPROBE_SCHED_CREATE:
    case DPROBE_SCHED_EXIT: case DPROBE_SCHED_WAKEUP: case DPROBE_SCHED_BLOCK_SEND:
    case DPROBE_SCHED_BLOCK_RECEIVE: case DPROBE_SCHED_BLOCK_REPLY: case DPROBE_SCHED_BLOCK_MUTEX:
    case DPROBE_SCHED_BLOCK_COND: case DPROBE_SCHED_BLOCK_SEM: case DPROBE_SCHED_BLOCK_SLEEP:
    case DPROBE_SCHED_BLOCK_JOIN: case DPROBE_SCHED_SLEEP: case DPROBE_SCHED_PREEMPT:
    case DPROBE_SCHED_REMAIN_CPU: case DPROBE_SCHED_SURRENDER: case DPROBE_SCHED_CHANGE_PRI:
    case DPROBE_SCHED_TICK: case DPROBE_PROC_LWP_CREATE: case DPROBE_PROC_LWP_START:
    case DPROBE_PROC_LWP_EXIT: case DPROBE_PROC_SIGNAL_SEND: case DPROBE_PROC_START:
        return k < 2 ? lwp[k] : 0;
    case DPROBE_PROC_CREATE:
        return k == 0 ? DCC_ARG_PSPID : 0;
    case DPROBE_PROC_EXEC:
        return k == 0 ? DCC_ARG_STR : 0;
    default:
        return 0;
    }
}

/* Names DTrace defines as constants (its dt_open.c built-ins and dtrace.h's fault codes as
 * ERROR's arg4 gives them) and built-in variables that are constant here: one interrupt level
 * for probes (ipl 0), no users (uid, gid 0). caller, ucaller, stackdepth and ustackdepth are
 * listed as built-in names; cg_expr.c has the engine compute them (DIF_S_CALLER, _STACKDEPTH). */
static const struct dcc_procmember consts[] = {
    { "caller", DCC_PM_CONST, 0, U64 }, { "ucaller", DCC_PM_CONST, 0, U64 },
    { "stackdepth", DCC_PM_CONST, 0, U32 }, { "ustackdepth", DCC_PM_CONST, 0, U32 },
    { "ipl", DCC_PM_CONST, 0, U32 }, { "uid", DCC_PM_CONST, 0, U32 },
    { "gid", DCC_PM_CONST, 0, U32 },
    { "DTRACEFLT_UNKNOWN", DCC_PM_CONST, 0, I32 }, { "DTRACEFLT_BADADDR", DCC_PM_CONST, 1, I32 },
    { "DTRACEFLT_BADALIGN", DCC_PM_CONST, 2, I32 }, { "DTRACEFLT_ILLOP", DCC_PM_CONST, 3, I32 },
    { "DTRACEFLT_DIVZERO", DCC_PM_CONST, 4, I32 }, { "DTRACEFLT_NOSCRATCH", DCC_PM_CONST, 5, I32 },
    { "DTRACEFLT_KPRIV", DCC_PM_CONST, 6, I32 }, { "DTRACEFLT_UPRIV", DCC_PM_CONST, 7, I32 },
    { "DTRACEFLT_TUPOFLOW", DCC_PM_CONST, 8, I32 }, { "DTRACEFLT_BADSTACK", DCC_PM_CONST, 9, I32 },
    { "DTRACEFLT_LIBRARY", DCC_PM_CONST, 1000, I32 },
    { "PR_MODEL_ILP32", DCC_PM_CONST, 1, I8 }, { "PR_MODEL_LP64", DCC_PM_CONST, 2, I8 },
    /* procfs.d: thread states (sys/proc.h), synchronization objects (sys/sobject.h) and the
     * lwpsinfo_t/pstatus_t flags (sys/procfs.h); d/dprinfo.h says which this kernel gives */
    { "SSLEEP", DCC_PM_CONST, 1, I8 }, { "SRUN", DCC_PM_CONST, 2, I8 },
    { "SZOMB", DCC_PM_CONST, 3, I8 }, { "SSTOP", DCC_PM_CONST, 4, I8 },
    { "SIDL", DCC_PM_CONST, 5, I8 }, { "SONPROC", DCC_PM_CONST, 6, I8 },
    { "SWAIT", DCC_PM_CONST, 7, I8 },
    { "SOBJ_NONE", DCC_PM_CONST, 0, I8 }, { "SOBJ_MUTEX", DCC_PM_CONST, 1, I8 },
    { "SOBJ_RWLOCK", DCC_PM_CONST, 2, I8 }, { "SOBJ_CV", DCC_PM_CONST, 3, I8 },
    { "SOBJ_SEMA", DCC_PM_CONST, 4, I8 }, { "SOBJ_USER", DCC_PM_CONST, 5, I8 },
    { "SOBJ_USER_PI", DCC_PM_CONST, 6, I8 }, { "SOBJ_SHUTTLE", DCC_PM_CONST, 7, I8 },
    { "PR_STOPPED", DCC_PM_CONST, 0x1, I32 }, { "PR_ISTOP", DCC_PM_CONST, 0x2, I32 },
    { "PR_DSTOP", DCC_PM_CONST, 0x4, I32 }, { "PR_STEP", DCC_PM_CONST, 0x8, I32 },
    { "PR_ASLEEP", DCC_PM_CONST, 0x10, I32 }, { "PR_PCINVAL", DCC_PM_CONST, 0x20, I32 },
    { "PR_ASLWP", DCC_PM_CONST, 0x40, I32 }, { "PR_AGENT", DCC_PM_CONST, 0x80, I32 },
    { "PR_DETACH", DCC_PM_CONST, 0x100, I32 }, { "PR_DAEMON", DCC_PM_CONST, 0x200, I32 },
    { "PR_IDLE", DCC_PM_CONST, 0x400, I32 }, { "PR_ISSYS", DCC_PM_CONST, 0x1000, I32 },
    { "PR_VFORKP", DCC_PM_CONST, 0x2000, I32 }, { "PR_ORPHAN", DCC_PM_CONST, 0x4000, I32 },
    { "PR_NOSIGCHLD", DCC_PM_CONST, 0x8000, I32 }, { "PR_WAITPID", DCC_PM_CONST, 0x10000, I32 },
    { "PR_FORK", DCC_PM_CONST, 0x100000, I32 }, { "PR_RLC", DCC_PM_CONST, 0x200000, I32 },
    { "PR_KLC", DCC_PM_CONST, 0x400000, I32 }, { "PR_ASYNC", DCC_PM_CONST, 0x800000, I32 },
    { "PR_MSACCT", DCC_PM_CONST, 0x1000000, I32 }, { "PR_BPTADJ", DCC_PM_CONST, 0x2000000, I32 },
    { "PR_PTRACE", DCC_PM_CONST, 0x4000000, I32 }, { "PR_MSFORK", DCC_PM_CONST, 0x8000000, I32 },
    /* signal.d, as this kernel's signals are numbered (uapi/kapi.h KSIG_*: proc:::fault's and
     * signal-send's arguments) */
    { "SIGILL", DCC_PM_CONST, 4, I32 }, { "SIGBUS", DCC_PM_CONST, 7, I32 },
    { "SIGFPE", DCC_PM_CONST, 8, I32 }, { "SIGKILL", DCC_PM_CONST, 9, I32 },
    { "SIGSEGV", DCC_PM_CONST, 11, I32 },
    END,
};

const struct dcc_procmember *dcc_builtin_const(const char *name)
{
    for (const struct dcc_procmember *m = consts; m->name; m++)
        if (!strcmp(m->name, name))
            return m;
    return NULL;
}
