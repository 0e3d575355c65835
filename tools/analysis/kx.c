// SPDX-License-Identifier: MIT
// The analysis model's base: file loading, the thread model, names (see kx.h).
#define _GNU_SOURCE // strptime, timegm
#include <kevhost/kx.h>
#include <kevhost/kx_ids.h>
#include <kevhost/tool_file.h>
#include <kevhost/tool_map.h>
#include <kevhost/kx_fields.h>
#include <kevhost/kx_digits.h>
#include <trace/kev_kercall.h>
#include <trace/kev_userreg.h>
#include <trace/kev_text.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// ---- files -------------------------------------------------------------------------------------

int kx_open(const char *tool, const char *path, struct kx_file *f)
{
    memset(f, 0, sizeof(*f));
    f->data = tool_map_file(path, &f->len, &f->mapped);
    if (!f->data) {
        fprintf(stderr, "%s: %s: %s\n", tool, path, strerror(errno));
        return -1;
    }
    f->r = malloc(sizeof(*f->r));
    if (!f->r) {
        fprintf(stderr, "%s: out of memory\n", tool);
        kx_close(f);
        return -1;
    }
    if (kev_open(f->r, f->data, f->len)) {
        fprintf(stderr, "%s: %s: %s\n", tool, path, kev_error(f->r));
        kx_close(f);
        return -1;
    }
    return 0;
}

void kx_close(struct kx_file *f)
{
    if (f->data)
        tool_unmap_file(f->data, f->len, f->mapped);
    free(f->r);
    memset(f, 0, sizeof(*f));
}

int kx_decode(const char *tool, struct kx_file *f, kev_cb cb, void *user)
{
    kev_set_user(f->r, user);
    kev_on_any(f->r, cb);
    if (kev_decode(f->r)) {
        fprintf(stderr, "%s: %s\n", tool, kev_error(f->r));
        return 1;
    }
    return 0;
}

// ---- the model ---------------------------------------------------------------------------------

static unsigned hash_of(uint32_t pid, uint32_t tid)
{
    uint32_t h = pid * 2654435761u ^ (tid + 0x9e3779b9u) * 40503u;
    return (h ^ h >> 15) & (KX_HASH - 1);
}

static void set_str(char *dst, const char *src)
{
    size_t i = 0;
    for (; src && src[i] && i + 1 < KEV_NAME_MAX; i++)
        dst[i] = src[i];
    dst[i] = 0;
}

int kx_thread_find(const struct kx_model *m, uint32_t pid, uint32_t tid)
{
    for (unsigned h = hash_of(pid, tid);; h = (h + 1) & (KX_HASH - 1)) {
        int32_t v = m->hash[h];
        if (!v)
            return KX_NO_THREAD;
        const struct kx_thread *t = &m->th[v - 1];
        if (t->pid == pid && t->tid == tid)
            return v - 1;
    }
}

int kx_thread(struct kx_model *m, uint32_t pid, uint32_t tid)
{
    unsigned h = hash_of(pid, tid);
    for (;; h = (h + 1) & (KX_HASH - 1)) {
        int32_t v = m->hash[h];
        if (!v)
            break;
        struct kx_thread *t = &m->th[v - 1];
        if (t->pid == pid && t->tid == tid)
            return v - 1;
    }
    if (m->nth >= KX_MAX_THREADS)
        return KX_NO_THREAD;
    int idx = (int)m->nth++;
    struct kx_thread *t = &m->th[idx];
    memset(t, 0, sizeof(*t));
    t->pid = pid;
    t->tid = tid;
    t->prio = -1;
    t->state = KX_STATE_UNKNOWN;
    t->cpu = t->last_cpu = -1;
    if (m->r) {
        set_str(t->name, kev_thread_name(m->r, pid, tid));
        set_str(t->comm, kev_proc_name(m->r, pid));
    }
    m->hash[h] = idx + 1;
    return idx;
}

void kx_model_init(struct kx_model *m, const struct kev_reader *r)
{
    memset(m, 0, sizeof(*m));
    kx_model_setup(m, r);
}

void kx_model_setup(struct kx_model *m, const struct kev_reader *r)
{
    m->r = r;
    for (unsigned c = 0; c < KEV_MAX_CPUS; c++)
        m->cur[c] = m->prev[c] = m->oncpu[c] = KX_NO_THREAD;
    for (unsigned i = 0; i < r->kr_nthreads; i++)
        kx_thread(m, r->kr_threads[i].kn_pid, r->kr_threads[i].kn_tid);
}

static void leave_cpu(struct kx_model *m, int idx)
{
    struct kx_thread *t = &m->th[idx];
    if (t->cpu >= 0 && m->cur[t->cpu] == idx) {
        m->cur[t->cpu] = KX_NO_THREAD;
        m->prev[t->cpu] = idx;
    }
    t->cpu = -1;
}

// Thread idx runs on cpu from now on.
static void run_on(struct kx_model *m, int idx, unsigned cpu)
{
    struct kx_thread *t = &m->th[idx];
    int prev = m->cur[cpu];
    if (prev >= 0 && prev != idx)
        m->th[prev].cpu = -1;
    if (t->cpu >= 0 && t->cpu != (int)cpu && m->cur[t->cpu] == idx)
        m->cur[t->cpu] = KX_NO_THREAD; // migrated
    m->cur[cpu] = idx;
    m->prev[cpu] = KX_NO_THREAD;
    t->cpu = t->last_cpu = (int)cpu;
    t->state = KEV_TH_RUNNING;
}

int kx_snapshot_cpu(const struct kev_event *e)
{
    const struct kx_fields *f = kx_fields();
    if (e->cls != KEV_C_SYSTEM || e->ev != KEV_SYS_SNAPSHOT || e->nw < 2 ||
        kev_field(e, f->snap_what) != 2u)
        return -1;
    unsigned c = kev_field(e, f->snap_cpu);
    return c < KEV_MAX_CPUS ? (int)c : -1;
}

static void thread_event(struct kx_model *m, const struct kev_event *e)
{
    int idx = kx_thread(m, kx_th_pid(e), kx_th_tid(e));
    if (idx < 0)
        return;
    struct kx_thread *t = &m->th[idx];
    if (kev_field_has(e, kx_fields()->th_prio))  // (wide mode's)
        t->prio = (int)kev_field(e, kx_fields()->th_prio);
    if (e->ev == KEV_TH_RUNNING) {
        unsigned cpu = e->cpu;
        if (m->in_snapshot && kx_is_idle(m, idx) && t->tid >= 1 && t->tid <= KEV_MAX_CPUS)
            cpu = t->tid - 1; // idle thread k + 1 is CPU k's, pinned there (kernel/main.c)
        run_on(m, idx, cpu);
    } else if (e->ev == KEV_TH_CREATE) {
        t->state = KX_STATE_UNKNOWN;
    } else if (e->ev == KEV_TH_DESTROY) {
        leave_cpu(m, idx);
        t->state = KEV_TH_DEAD;
    } else {
        leave_cpu(m, idx);
        t->state = e->ev;
    }
}

static void name_event(struct kx_model *m, const struct kev_event *e)
{
    char name[KEV_NAME_MAX];
    const struct kx_fields *f = kx_fields();
    uint32_t pid = kx_pr_pid(e);
    if (e->ev == KEV_PR_CREATE_NAME && pid < KX_MAX_PID)
        m->ppid[pid] = kx_pr_ppid(e);
    kev_event_name(m->r, e, 2, name, sizeof(name));
    if (e->ev == KEV_PR_THREAD_NAME) {
        uint32_t tid = kev_field(e, f->tname_tid);
        int idx = kx_thread(m, pid, tid ? tid : 1);
        if (idx >= 0 && m->th[idx].name[0] && strcmp(m->th[idx].name, name) && !m->in_snapshot)
            m->th[idx].renamed = 1;
        if (idx >= 0)
            set_str(m->th[idx].name, name);
        return;
    }
    for (unsigned i = 0; i < m->nth; i++) // PROCCREATE_NAME: rare, a scan is fine
        if (m->th[i].pid == pid)
            set_str(m->th[i].comm, name);
}

// A process's or thread's creation or end in the kernel's counts (struct kx_proc): a process's
// CREATE counts its first thread (the kernel's p->nthreads is 1 by then), whose THCREATE then
// is not counted again; a snapshot's processes count their threads at their CREATEs; a thread
// DEAD leaves the count; a process's end leaves its children without a parent.
static void proc_event(struct kx_model *m, const struct kev_event *e)
{
    uint32_t pid = e->ev <= KEV_TH_DESTROY ? kx_th_pid(e) : kx_pr_pid(e);
    struct kx_proc *q = pid < KX_MAX_PID ? &m->proc[pid] : NULL;
    if (e->ev == KEV_PR_CREATE_NAME || e->ev == KEV_PR_CREATE) {
        if (!q)
            return;
        q->known = q->created = 1;
        q->parent = kx_pr_ppid(e);
        q->nlwp = m->in_snapshot ? 0 : 1;
        q->first_pending = !m->in_snapshot;
    } else if (e->ev == KEV_PR_DESTROY_NAME || e->ev == KEV_PR_DESTROY) {
        for (unsigned k = 0; k < KX_MAX_PID; k++)
            if (m->proc[k].known && m->proc[k].parent == pid)
                m->proc[k].parent = 0;
    } else if (e->ev == KEV_TH_CREATE && pid && q) {
        q->known = 1;
        if (q->first_pending && kx_th_tid(e) == 1)
            q->first_pending = 0;
        else
            q->nlwp++;
    } else if (e->ev == KEV_TH_DEAD && pid && q && q->known) {
        q->nlwp--;
    }
}

void kx_model_update(struct kx_model *m, const struct kev_event *e)
{
    if (e->cls != KEV_C_CONTROL) {
        if (!m->have_t)
            m->first_t = e->t64, m->have_t = 1;
        m->last_t = e->t64;
    }
    if (e->cls == KEV_C_PR_TH && e->nw >= 2) {
        proc_event(m, e);
        if (e->ev <= KEV_TH_DESTROY)
            thread_event(m, e);
        else if ((e->ev == KEV_PR_CREATE_NAME || e->ev == KEV_PR_THREAD_NAME) && e->nw >= 3)
            name_event(m, e);
        else if (e->ev == KEV_PR_CREATE && kx_pr_pid(e) < KX_MAX_PID)
            m->ppid[kx_pr_pid(e)] = kx_pr_ppid(e);
        else if (e->ev == KEV_PR_DESTROY || e->ev == KEV_PR_DESTROY_NAME)
            for (unsigned i = 0, pid = kx_pr_pid(e); i < m->nth; i++)
                if (m->th[i].pid == pid && m->th[i].state != KEV_TH_DEAD)
                    leave_cpu(m, (int)i), m->th[i].state = KEV_TH_DEAD;
    } else if (e->cls == KEV_C_INT && e->nw >= 1) {
        unsigned c = e->cpu;
        if (e->ev == KEV_INT_ENTER)
            m->irq[c] = kx_int_irq(e) + 1, m->irq_how[c] = 1;
        else if (e->ev == KEV_INT_HANDLER_ENTER && !m->irq[c])
            m->irq[c] = kx_int_irq(e) + 1, m->irq_how[c] = 2;
        else if (e->ev == KEV_INT_EXIT || (e->ev == KEV_INT_HANDLER_EXIT && m->irq_how[c] == 2))
            m->irq[c] = 0, m->irq_how[c] = 0;
    } else if (e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_PRIO_CHANGE && e->nw >= 2) {
        // every thread's priority from the START snapshot on, in fast mode too (whose state
        // events carry none)
        const struct kx_fields *f = kx_fields();
        uint32_t who = kev_field(e, f->prio_who);
        int idx = kx_thread(m, kev_who_pid(who), kev_who_tid(who));
        if (idx >= 0)
            m->th[idx].prio = (int)kev_field(e, f->prio_new);
    } else if (e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_ONCPU && e->nw >= 1) {
        uint32_t who = kev_field(e, kx_fields()->oncpu_who);
        m->oncpu[e->cpu] = who ? kx_thread(m, kev_who_pid(who), kev_who_tid(who)) : KX_NO_THREAD;
    } else if (e->cls == KEV_C_SYSTEM && e->ev == KEV_SYS_SNAPSHOT && e->nw >= 2) {
        const struct kx_fields *f = kx_fields();
        uint32_t who = kev_field(e, f->snap_who), what = kev_field(e, f->snap_what);
        int c = kx_snapshot_cpu(e), idx;
        if (c >= 0 && who && (idx = kx_thread(m, kev_who_pid(who), kev_who_tid(who))) >= 0)
            run_on(m, idx, (unsigned)c);
        else if (c < 0 && what <= 1)   // 0 the snapshot starts, 1 it ends
            m->in_snapshot = what == 0;
    }
}

uint32_t kx_ppid(const struct kx_model *m, uint32_t pid)
{
    return pid < KX_MAX_PID ? m->ppid[pid] : 0;
}

const struct kx_proc *kx_proc(const struct kx_model *m, uint32_t pid)
{
    return pid < KX_MAX_PID && m->proc[pid].known ? &m->proc[pid] : NULL;
}

const char *kx_label_plain(const struct kx_model *m, int idx, char *buf, size_t n)
{
    if (idx < 0) {
        snprintf(buf, n, "idle");
        return buf;
    }
    const struct kx_thread *t = &m->th[idx];
    if (t->comm[0] && t->name[0])
        snprintf(buf, n, "%s/%s", t->comm, t->name);
    else if (t->comm[0])
        snprintf(buf, n, "%s/%u", t->comm, t->tid);
    else if (t->name[0])
        snprintf(buf, n, "%s", t->name);
    else
        snprintf(buf, n, "pid%u/%u", t->pid, t->tid);
    return buf;
}

int kx_idle_cpu(const struct kx_model *m, int idx)
{
    if (idx < 0)
        return -1;
    const struct kx_thread *t = &m->th[idx];
    return !strcmp(t->name, "idle") && t->tid >= 1 && t->tid <= KEV_MAX_CPUS ? (int)t->tid - 1 : -1;
}

const char *kx_label(const struct kx_model *m, int idx, char *buf, size_t n)
{
    kx_label_plain(m, idx, buf, n);
    int cpu = kx_idle_cpu(m, idx);
    size_t k = strlen(buf);
    if (cpu >= 0 && k < n)
        snprintf(buf + k, n - k, " (CPU %d)", cpu);
    return buf;
}

int kx_cpu_thread(const struct kx_model *m, unsigned cpu)
{
    return m->cur[cpu] >= 0 ? m->cur[cpu] : m->oncpu[cpu];
}

int kx_event_thread(struct kx_model *m, const struct kev_event *e)
{
    if (e->cls == KEV_C_PR_TH && e->ev <= KEV_TH_DESTROY && e->nw >= 2)
        return kx_thread(m, kx_th_pid(e), kx_th_tid(e));
    return kx_cpu_thread(m, e->cpu);
}

// ---- names and helpers -------------------------------------------------------------------------

const char *kx_kcall_name(unsigned call, char *buf, size_t n)
{
    const char *s = kev_kcall_name(call);
    if (s)
        return s;
    snprintf(buf, n, "kc%u", call);
    return buf;
}

const char *kx_kcall_api_name(unsigned call, const uint32_t *arg, unsigned nargs, char *buf,
                              size_t n)
{
    const char *api = kev_kcall_api_name(call, arg, nargs);
    return api ? api : kx_kcall_name(call, buf, n);
}

int kx_is_logger(const struct kx_model *m, int idx)
{
    return idx >= 0 && (unsigned)idx < m->nth && !strcmp(m->th[idx].comm, "tracelogger");
}

int kx_user_string(const struct kev_reader *r, const struct kev_event *e, char *buf, size_t n)
{
    if (e->nslots < 2) {
        buf[0] = 0;
        return 0;
    }
    kev_event_string(r, e, 0, buf, n);
    size_t len = strlen(buf);
    // The text and its NUL fill the event's slots (8 bytes a slot, the last padded), and a
    // string alone takes at least two slots: trace_emit_string pads a text under 8 bytes to 9
    // bytes, so that it is told from a two-word event (docs/trace-api.md). A text that ends
    // a slot or more before the event does is words that happen to start with a printable byte.
    size_t slots = (len + 1u + 7u) / 8u < 2u ? 2u : (len + 1u + 7u) / 8u;
    return len > 0 && !strchr(buf, '?') && slots >= e->nslots;
}

void kx_user_text(const struct kev_reader *r, struct kev_userreg *g, uint32_t pid,
                  const struct kev_event *e, int with_name, char *out, size_t n)
{
    char v[256];
    int str = kx_user_string(r, e, v, sizeof(v));
    if (e->ev == KEV_USER_REGISTRY && g && str)
        kev_userreg_add(g, pid, v);
    const struct kev_ureg_entry *u = g ? kev_userreg_find(g, pid, e->ev) : NULL;
    if (!str && u && u->fmt[0]) {
        kev_userreg_format(u->fmt, e->w, e->nw, v, sizeof(v));
    } else if (!str) { // the words, as printf's "%s0x%x" with " " between (11 bytes each)
        size_t k = 0;
        for (unsigned i = 0; i < e->nw && k + 12 < sizeof(v); i++) {
            if (i)
                v[k++] = ' ';
            k += kx_put_hex(v + k, e->w[i]);
        }
        v[k] = 0;
    }
    // out = [name ": "] v, cut to n - 1 bytes as snprintf would (printf costs more than the
    // rest of a user event's conversion)
    const char *part[3] = { with_name && u ? u->name : "", with_name && u ? ": " : "", v };
    size_t k = 0;
    for (unsigned i = 0; i < 3 && n; i++)
        for (const char *p = part[i]; *p && k + 1 < n; p++)
            out[k++] = *p;
    if (n)
        out[k] = 0;
}

// BOOT_DATE's layouts: date(1)'s with or without a zone, ISO 8601.
int64_t kx_boot_time(const struct kev_reader *r)
{
    static const char *const layouts[] = { "%a %b %d %H:%M:%S %Y", "%a %b %d %H:%M:%S UTC %Y",
                                           "%a %b %d %H:%M:%S GMT %Y", "%Y-%m-%dT%H:%M:%SZ",
                                           "%Y-%m-%d %H:%M:%S" };
    unsigned n;
    const char *v = kev_attr(r, "BOOT_DATE", &n);
    char buf[64];
    if (!v || n >= sizeof(buf))
        return 0;
    memcpy(buf, v, n);
    buf[n] = 0;
    for (unsigned i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
        struct tm tm;
        memset(&tm, 0, sizeof(tm));
        const char *end = strptime(buf, layouts[i], &tm);
        if (end && !*end)
            return (int64_t)timegm(&tm);
    }
    return 0;
}

int kx_time_arg(const char *arg, uint64_t *ns)
{
    static const struct { const char *unit; double ns; } u[] = {
        { "", 1e3 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
    char *end;
    double v = strtod(arg, &end);
    for (unsigned i = 0; end != arg && v >= 0 && v < 1e6 && i < sizeof(u) / sizeof(u[0]); i++)
        if (!strcmp(end, u[i].unit)) {
            *ns = (uint64_t)(v * u[i].ns + 0.5);
            return 0;
        }
    return -1;
}

double kx_seconds(const struct kev_reader *r, uint64_t cycles)
{
    return r->kr_cycles_per_sec ? (double)cycles / (double)r->kr_cycles_per_sec : 0.0;
}

unsigned kx_log2_bucket(uint64_t v)
{
    return v ? 64u - (unsigned)__builtin_clzll(v) : 0u;
}
