// SPDX-License-Identifier: MIT
// What D's process and thread views (curpsinfo, curlwpsinfo) and its constant built-ins mean
// on this system: tables the code generator (cg.c) reads, no code of its own. A member of
// psinfo_t/lwpsinfo_t is a built-in variable of the firing (pid, tid, the thread's priority),
// a constant this kernel can state honestly (no users: uid 0; the thread firing is on a CPU:
// state SONPROC), D_XLATE_NOCONV where DTrace's own translator (procfs.d) defines no
// conversion either, or D_UNSUPPORTED where DTrace has one and this kernel has nothing to say.
#include "dcc_impl.h"

#define I32 { .kind = DIF_TYPE_INT, .size = 4, .sign = 1 }
#define U32 { .kind = DIF_TYPE_INT, .size = 4, .sign = 0 }
#define U64 { .kind = DIF_TYPE_INT, .size = 8, .sign = 0 }
#define I8  { .kind = DIF_TYPE_INT, .size = 1, .sign = 1 }
#define STR { .kind = DIF_TYPE_STR }

static const struct dcc_procmember psinfo[] = {
    { "pr_nlwp", DCC_PM_BUILTIN, DIF_B_NLWP, I32 },
    { "pr_pid", DCC_PM_BUILTIN, DIF_B_PID, I32 },
    { "pr_ppid", DCC_PM_BUILTIN, DIF_B_PPID, I32 },
    /* no process groups or sessions: each process leads its own */
    { "pr_pgid", DCC_PM_BUILTIN, DIF_B_PID, I32 },
    { "pr_sid", DCC_PM_BUILTIN, DIF_B_PID, I32 },
    /* no users or groups: everything runs as 0 */
    { "pr_uid", DCC_PM_CONST, 0, U32 }, { "pr_euid", DCC_PM_CONST, 0, U32 },
    { "pr_gid", DCC_PM_CONST, 0, U32 }, { "pr_egid", DCC_PM_CONST, 0, U32 },
    { "pr_addr", DCC_PM_CONST, 0, U64 },
    { "pr_fname", DCC_PM_BUILTIN, DIF_B_EXECNAME, STR },
    { "pr_psargs", DCC_PM_BUILTIN, DIF_B_EXECNAME, STR },
    { "pr_ttydev", DCC_PM_UNSUP, 0, U64 }, { "pr_argc", DCC_PM_UNSUP, 0, I32 },
    { "pr_argv", DCC_PM_UNSUP, 0, U64 }, { "pr_envp", DCC_PM_UNSUP, 0, U64 },
    { "pr_dmodel", DCC_PM_UNSUP, 0, I8 }, { "pr_taskid", DCC_PM_UNSUP, 0, I32 },
    { "pr_projid", DCC_PM_UNSUP, 0, I32 }, { "pr_poolid", DCC_PM_UNSUP, 0, I32 },
    { "pr_zoneid", DCC_PM_UNSUP, 0, I32 }, { "pr_start", DCC_PM_UNSUP, 0, U64 },
    /* members of psinfo_t procfs.d's translator leaves out */
    { "pr_flag", DCC_PM_NOCONV, 0, I32 }, { "pr_size", DCC_PM_NOCONV, 0, U64 },
    { "pr_rssize", DCC_PM_NOCONV, 0, U64 }, { "pr_pctcpu", DCC_PM_NOCONV, 0, U32 },
    { "pr_pctmem", DCC_PM_NOCONV, 0, U32 }, { "pr_time", DCC_PM_NOCONV, 0, U64 },
    { "pr_ctime", DCC_PM_NOCONV, 0, U64 }, { "pr_wstat", DCC_PM_NOCONV, 0, I32 },
    { "pr_nzomb", DCC_PM_NOCONV, 0, I32 }, { "pr_contract", DCC_PM_NOCONV, 0, I32 },
    { "pr_lwp", DCC_PM_NOCONV, 0, U64 },
    { NULL, 0, 0, U32 },
};

static const struct dcc_procmember lwpsinfo[] = {
    { "pr_flag", DCC_PM_CONST, 0, I32 },
    { "pr_lwpid", DCC_PM_BUILTIN, DIF_B_TID, I32 },
    { "pr_addr", DCC_PM_CONST, 0, U64 }, { "pr_wchan", DCC_PM_CONST, 0, U64 },
    { "pr_stype", DCC_PM_CONST, 0, I8 },
    /* the thread firing a probe is the one on the CPU: SONPROC, 'O' */
    { "pr_state", DCC_PM_CONST, 6, I8 }, { "pr_sname", DCC_PM_CONST, 'O', I8 },
    { "pr_syscall", DCC_PM_CONST, 0, { .kind = DIF_TYPE_INT, .size = 2, .sign = 1 } },
    { "pr_pri", DCC_PM_BUILTIN, DIF_B_PRIO, I32 },
    { "pr_onpro", DCC_PM_BUILTIN, DIF_B_CPU, I32 },
    /* not bound to a CPU or a processor set (PBIND_NONE, PS_NONE) */
    { "pr_bindpro", DCC_PM_CONST, (uint64_t)-1, I32 },
    { "pr_bindpset", DCC_PM_CONST, (uint64_t)-1, I32 },
    { "pr_lgrp", DCC_PM_CONST, 0, I32 },
    { "pr_clname", DCC_PM_UNSUP, 0, STR }, { "pr_start", DCC_PM_UNSUP, 0, U64 },
    /* members of lwpsinfo_t procfs.d's translator leaves out */
    { "pr_nice", DCC_PM_NOCONV, 0, I8 }, { "pr_oldpri", DCC_PM_NOCONV, 0, I8 },
    { "pr_cpu", DCC_PM_NOCONV, 0, I8 }, { "pr_pctcpu", DCC_PM_NOCONV, 0, U32 },
    { "pr_time", DCC_PM_NOCONV, 0, U64 }, { "pr_name", DCC_PM_NOCONV, 0, STR },
    { NULL, 0, 0, U32 },
};

/* dcc_procinfo: the members of curpsinfo ("psinfo_t") or curlwpsinfo ("lwpsinfo_t"), or
 * NULL if var is neither; *type_name names the type for messages. */
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
    return NULL;
}

/* args[0] and args[1] of the sched and proc thread probes (docs/d-probes.md): Solaris's
 * lwpsinfo_t * and psinfo_t *, here read from the probe's arguments, which every such probe
 * lays out alike: arg0 the thread (who: pid << 16 | tid), arg1 its pid, arg2 its priority.
 * pr_addr is the thread's (the process's) unique key, as Solaris scripts use it. Members
 * that need the other thread's memory (its name, its state) have no value here. */
static const struct dcc_argmember args_lwp[] = {
    { "pr_lwpid", DCC_PM_BUILTIN, 0, 0, 0xffffu, I32 },
    { "pr_pid", DCC_PM_BUILTIN, 0, 16, 0xffffu, I32 },  /* ours: the thread's process */
    { "pr_addr", DCC_PM_BUILTIN, 0, 0, 0xffffffffu, U64 },
    /* change-pri fires before the change, as Solaris's: its args[0]->pr_pri is the old
     * priority, its arg3 (its arg2 is the new, Solaris's args[2]) */
    { "pr_pri", DCC_PM_BUILTIN, 2, 0, 0xffu, I32 },   /* change-pri: arg3 (cg.c) */
    { "pr_flag", DCC_PM_CONST, 0, 0, 0, I32 },
    { "pr_bindpro", DCC_PM_CONST, 0, 0, 0xffffffffu, I32 },  /* a constant: (int32_t)mask */
    { "pr_state", DCC_PM_UNSUP, 0, 0, 0, I8 }, { "pr_sname", DCC_PM_UNSUP, 0, 0, 0, I8 },
    { "pr_stype", DCC_PM_UNSUP, 0, 0, 0, I8 }, { "pr_wchan", DCC_PM_UNSUP, 0, 0, 0, U64 },
    { "pr_onpro", DCC_PM_UNSUP, 0, 0, 0, I32 }, { "pr_clname", DCC_PM_UNSUP, 0, 0, 0, STR },
    { "pr_name", DCC_PM_NOCONV, 0, 0, 0, STR },
    { NULL, 0, 0, 0, 0, U32 },
};

static const struct dcc_argmember args_ps[] = {
    { "pr_pid", DCC_PM_BUILTIN, 1, 0, 0xffffu, I32 },
    { "pr_addr", DCC_PM_BUILTIN, 1, 0, 0xffffu, U64 },
    { "pr_uid", DCC_PM_CONST, 0, 0, 0, U32 }, { "pr_gid", DCC_PM_CONST, 0, 0, 0, U32 },
    { "pr_fname", DCC_PM_UNSUP, 0, 0, 0, STR }, { "pr_psargs", DCC_PM_UNSUP, 0, 0, 0, STR },
    { "pr_ppid", DCC_PM_UNSUP, 0, 0, 0, I32 }, { "pr_nlwp", DCC_PM_UNSUP, 0, 0, 0, I32 },
    { NULL, 0, 0, 0, 0, U32 },
};

const struct dcc_argmember *dcc_probe_arg(unsigned k, const char **type_name)
{
    *type_name = k == 0 ? "lwpsinfo_t" : "psinfo_t";
    return k == 0 ? args_lwp : k == 1 ? args_ps : NULL;
}

/* Names DTrace defines as constants (its dt_open.c built-ins and dtrace.h's fault codes as
 * ERROR's arg4 gives them) and built-in variables that are constant here: caller 0, one
 * interrupt level for probes (ipl 0), no users (uid, gid 0). stackdepth and ustackdepth are
 * listed as built-in names; cg.c has the engine compute them (DIF_S_STACKDEPTH). */
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
    { "PR_MODEL_ILP32", DCC_PM_CONST, 1, I32 }, { "PR_MODEL_LP64", DCC_PM_CONST, 2, I32 },
    { NULL, 0, 0, U32 },
};

const struct dcc_procmember *dcc_builtin_const(const char *name)
{
    for (const struct dcc_procmember *m = consts; m->name; m++)
        if (!strcmp(m->name, name))
            return m;
    return NULL;
}
