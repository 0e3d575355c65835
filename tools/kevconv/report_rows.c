// SPDX-License-Identifier: MIT
// kevreport's event list and blocked-by records (report_rows.h): each decoded event as one
// short row [t, cpu, thread, "CLASS", "what"] for the page's searchable list, and each wait on
// a mutex, semaphore or condvar that has an owner as [waiter, t0, t1, owner, "object"] for the
// timeline's blocked-by arrows (tools/analysis/kx_wait.c finds them). Times are cycles from the first
// event, like the other timeline records.
#include "report_rows.h"

#include <kevhost/kx_fields.h>
#include <kevhost/syms_usdt.h>
#include <trace/kev.h>
#include <kevhost/json_out.h>

// A SYSTEM event's row: SYNC_WAIT and PRIO_CHANGE with their fields (the event table's), a
// USDT firing named from its program's note as every tool names it (syms_usdt.h).
static void system_what(const struct kx_stats *s, const struct kev_event *e, char *b, size_t n)
{
    const struct kx_fields *f = kx_fields();
    static struct kev_fields fs;
    struct syms_usdt_firing u;
    const char *name;
    if (e->ev == KEV_SYS_USDT && (kev_fields_decode(s->r, e, &fs), syms_usdt_firing(&fs, &u) == 0)) {
        size_t k = (size_t)snprintf(b, n, "USDT ");    // (n is a row's 256 bytes)
        syms_usdt_text(&u, b + k, n - k);
    } else if (e->ev == KEV_SYS_SYNC_WAIT && s->kw) {
        uint32_t owner = kev_field(e, f->sync_owner);
        snprintf(b, n, "SYNC_WAIT object %u owner %u/%u", kev_field(e, f->sync_object),
                 kev_who_pid(owner), kev_who_tid(owner));
    } else if (e->ev == KEV_SYS_PRIO_CHANGE) {
        uint32_t who = kev_field(e, f->prio_who);
        snprintf(b, n, "PRIO_CHANGE %u/%u %u -> %u (%s)", kev_who_pid(who), kev_who_tid(who),
                 kev_field(e, f->prio_old), kev_field(e, f->prio_new),
                 kw_cause_name(kev_field(e, f->prio_cause)));
    } else {
        snprintf(b, n, "%s", (name = kev_system_name(e->ev)) ? name : "SYSTEM");
    }
}

// An event's row from its fields as the table names them: "NAME field value ..." (the first
// three one-value fields).
static void fields_what(const struct kx_stats *s, const struct kev_event *e, char *b, size_t n)
{
    static struct kev_fields fs;
    kev_fields_decode(s->r, e, &fs);
    size_t k = (size_t)snprintf(b, n, "%s", fs.name);
    for (unsigned i = 0, shown = 0; i < fs.n && shown < 3 && k < n; i++)
        if (fs.f[i].kind != KEV_K_STRING && !KEV_K_IS_ARRAY(fs.f[i].kind)) {
            k += (size_t)snprintf(b + k, n - k, " %s 0x%llx", fs.f[i].name,
                                  (unsigned long long)fs.f[i].v);
            shown++;
        }
}

static void what(const struct kx_stats *s, const struct kev_event *e, char *b, size_t n)
{
    char nb[32];
    const char *name;
    int32_t ret;
    uint32_t err;
    switch (e->cls) {
    case KEV_C_PR_TH:
        if (e->ev >= KX_TH_EVENTS || e->nw < 2) {
            fields_what(s, e, b, n);
            break;
        }
        name = kev_thread_state_name(e->ev);
        snprintf(b, n, "%s %u/%u", name ? name : "?", kx_th_pid(e), kx_th_tid(e));
        break;
    case KEV_C_KER_CALL: // the entry's first argument, the exit's result
        snprintf(b, n, "%s %s 0x%x", kev_kcall_part(e) == KEV_KCALL_ENTRY
                 ? kx_kcall_api_name(kev_kcall_no(e), e->w, e->nw, nb, sizeof(nb))
                 : kx_kcall_name(kev_kcall_no(e), nb, sizeof(nb)),
                 kev_kcall_part_name(e->ev),
                 kev_kcall_exit(e, &ret, &err) ? (uint32_t)ret : kev_kcall_arg(e, 0));
        break;
    case KEV_C_INT:
        name = kev_int_name(e->ev);
        snprintf(b, n, "%s irq %u", name ? name : "INT", kev_int_irq(e));
        break;
    case KEV_C_COMM:
        fields_what(s, e, b, n);
        break;
    case KEV_C_SYSTEM:
        system_what(s, e, b, n);
        break;
    default:
        snprintf(b, n, "event %u", e->ev);
    }
}

void report_event_row(FILE *f, const struct kx_stats *s, const struct kev_event *e, uint64_t t,
                      int th, int first)
{
    char b[256];
    what(s, e, b, sizeof(b));
    fprintf(f, "%s[%llu,%u,%d,\"%s\",", first ? "" : ",", (unsigned long long)t, e->cpu,
            th, kev_class_name(e->cls));
    json_str(f, b, 0);
    fputc(']', f);
}

void report_wait_row(FILE *f, const struct kx_stats *s, const struct kw_wait *w, uint64_t t0,
                     uint64_t t1)
{
    char ob[48];
    if (w->owner < 0)
        return;
    fprintf(f, "%s[%d,%llu,%llu,%d,", ftell(f) ? "," : "", w->th, (unsigned long long)t0,
            (unsigned long long)t1, w->owner);
    json_str(f, kx_wait_obj(s, w->obj, ob, sizeof(ob)), 0);
    fputc(']', f);
}
