// SPDX-License-Identifier: MIT
// Kernel ids, names and priorities in Linux / LTTng terms (see kx_ids.h for the rules).
#include <string.h>

#include <kevhost/kx_ids.h>

int kx_is_idle(const struct kx_model *m, int th)
{
    const char *n = th >= 0 ? m->th[th].name : "";
    return th < 0 || m->th[th].pid == 0 || (n[0] == 'i' && !strcmp(n, "idle")); // hot: per event
}

int32_t kx_tid_of(uint32_t pid, uint32_t tid)
{
    return (int32_t)(pid * KX_TID_MUL + tid);
}

int32_t kx_ltid(const struct kx_model *m, int th)
{
    return kx_is_idle(m, th) ? 0 : kx_tid_of(m->th[th].pid, m->th[th].tid);
}

int32_t kx_pid_of(uint32_t pid)
{
    return pid ? kx_tid_of(pid, 1) : 0;
}

int32_t kx_lpid(const struct kx_model *m, int th)
{
    return kx_is_idle(m, th) ? 0 : kx_pid_of(m->th[th].pid);
}

int kx_proc_has_threads(const struct kx_model *m, uint32_t pid)
{
    for (unsigned i = 0; i < m->nth; i++) // statedump and process tree only: a scan is fine
        if (m->th[i].pid == pid && !kx_is_idle(m, (int)i))
            return 1;
    return 0;
}

int32_t kx_lppid(const struct kx_model *m, uint32_t pid)
{
    uint32_t pp = kx_ppid(m, pid);
    return pp && kx_proc_has_threads(m, pp) ? kx_pid_of(pp) : 0;
}

const char *kx_lcomm(const struct kx_model *m, int th)
{
    if (kx_is_idle(m, th))
        return "swapper";
    const struct kx_thread *t = &m->th[th];
    if (t->name[0] && (t->tid > 1 || t->renamed)) // Linux: a main thread's comm is its
        return t->name;                             // process's until it renames itself
    return t->comm[0] ? t->comm : t->name;
}

int32_t kx_kernel_prio(int qnx_prio)
{
    if (qnx_prio <= 0)
        return 120;
    return qnx_prio >= 99 ? 0 : 99 - qnx_prio;
}

int32_t kx_lttng_prio(int qnx_prio)
{
    return kx_kernel_prio(qnx_prio) - 100;
}

int kx_qprio(const struct kx_model *m, int th)
{
    return th >= 0 ? m->th[th].prio : -1;
}
