// SPDX-License-Identifier: MIT
// A capture's faults (kx_faults.h). Keeps the first KX_MAX_FAULTS faults (a capture holds
// few: each kills its process) and counts the rest; a FAULT's stack is the STACK of kind FAULT
// of the same thread that the kernel writes right after it on the same CPU.
#include <kevhost/kx_faults.h>
#include <string.h>
#include <trace/kev_stack.h>
#include <kevhost/tool_elfsym.h>
#include <kevhost/tool_syms.h>
#include <kevhost/json_out.h>

#define KX_MAX_FAULTS 64u

static struct {
    struct kev_fault f;
    struct kev_stack s;
    int have_stack;
    unsigned cpu;
    uint64_t t;
} faults[KX_MAX_FAULTS];
static unsigned nfaults;
static uint64_t more;

void kx_faults_event(const struct kev_event *e)
{
    if (e->cls != KEV_C_SYSTEM || (e->ev != KEV_SYS_FAULT && e->ev != KEV_SYS_STACK))
        return;
    struct kev_stack s;
    if (e->ev == KEV_SYS_STACK) {   // the last fault's, when it is that thread's on that CPU
        if (nfaults && kev_stack_decode(e->w, e->nw, &s) == 0 && s.kind == KEV_STACK_FAULT &&
            !faults[nfaults - 1].have_stack && faults[nfaults - 1].f.who == s.who &&
            faults[nfaults - 1].cpu == e->cpu) {
            faults[nfaults - 1].s = s;
            faults[nfaults - 1].have_stack = 1;
        }
        return;
    }
    struct kev_fault f;
    if (kev_fault_decode(e->w, e->nw, &f) != 0)
        return;
    if (nfaults == KX_MAX_FAULTS) {
        more++;
        return;
    }
    faults[nfaults].f = f;
    faults[nfaults].have_stack = 0;
    faults[nfaults].cpu = e->cpu;
    faults[nfaults].t = e->t64;
    nfaults++;
}

// where: the pc's function "module`function+0x6" in fn, its "file.c:27" in src ("" when the
// files have no line there); 0 when no file names it (fn then "0x...").
static int where(uint64_t pc, char *fn, size_t fn_n, char *src, size_t src_n)
{
    char full[512];
    src[0] = 0;
    if (!syms_active() || elfsym_frame(pc, 0, 1, full, sizeof(full), NULL, 0) != 0) {
        snprintf(fn, fn_n, "0x%llx", (unsigned long long)pc);
        return 0;
    }
    char *br = strstr(full, " [");
    if (br) {   // "module`f+0x6 [file.c:27]"
        size_t l = strlen(br + 2);
        snprintf(src, src_n, "%.*s", (int)(l && br[2 + l - 1] == ']' ? l - 1 : l), br + 2);
        *br = 0;
    }
    snprintf(fn, fn_n, "%s", full);
    return 1;
}

void kx_faults_print(const struct kx_stats *st)
{
    printf("== Faults ==\n");
    if (!nfaults)
        printf("  (no SYSTEM FAULT events: no process faulted while the capture ran)\n");
    for (unsigned i = 0; i < nfaults; i++) {
        const struct kev_fault *f = &faults[i].f;
        const char *name = kev_proc_name(st->r, f->pid);
        char text[200], fn[520], src[256];
        kev_fault_text(f, text, sizeof(text));
        printf("  %.3f us CPU %u %s %s\n",
               kx_seconds(st->r, faults[i].t) * 1e6, faults[i].cpu, // since boot
               name ? name : "?", text);
        if (where(f->pc, fn, sizeof(fn), src, sizeof(src)))
            printf("    in %s%s%s%s\n", fn, src[0] ? " [" : "", src, src[0] ? "]" : "");
        if (!faults[i].have_stack) {
            printf("    (no stack recorded)\n");
            continue;
        }
        const struct kev_stack *s = &faults[i].s;
        printf("    stack, %u frames%s%s:\n", s->depth, s->ended ? ", cut short: " : "",
               s->ended ? kev_stack_ended_name(s->ended) : "");
        for (unsigned k = 0; k < s->depth; k++) {   // as dtrace prints a stack, named
            char frame[512];
            syms_pc(s->pcs[k], k > 0, frame, sizeof(frame), NULL, 0);
            printf("              %s\n", frame);
        }
    }
    if (more)
        printf("  (%llu more faults not listed)\n", (unsigned long long)more);
}

// The model's index of thread pid/tid, -1 when it has none (faults are few: a linear look).
static int thread_of(const struct kx_model *m, uint32_t pid, uint32_t tid)
{
    for (unsigned i = 0; i < m->nth; i++)
        if (m->th[i].pid == pid && m->th[i].tid == tid)
            return (int)i;
    return -1;
}

void kx_faults_json(const struct kx_stats *st, FILE *o)
{
    fputs("{\"list\":[", o);
    for (unsigned i = 0; i < nfaults; i++) {
        const struct kev_fault *f = &faults[i].f;
        const char *name = kev_proc_name(st->r, f->pid);
        char fn[520], src[256];
        where(f->pc, fn, sizeof(fn), src, sizeof(src));
        fprintf(o, "%s{\"thread\":%d,\"t\":%llu,\"cpu\":%u,\"pid\":%u,\"tid\":%u,\"process\":",
                i ? "," : "", thread_of(&st->m, f->pid, f->tid),
                (unsigned long long)(faults[i].t - st->t_first), faults[i].cpu, f->pid, f->tid);
        json_str(o, name ? name : "", 0);
        fprintf(o, ",\"signal\":\"%s\",\"signo\":%u,\"kind\":\"%s\",\"pc\":\"0x%llx\",\"addr\":",
                kev_signal_name(f->sig), f->sig, kev_fault_kind_name(f->kind),
                (unsigned long long)f->pc);
        if (f->addr_valid)
            fprintf(o, "\"0x%llx\"", (unsigned long long)f->addr);
        else
            fputs("null", o);
        fputs(",\"function\":", o);
        json_str(o, fn, 0);
        fputs(",\"source\":", o);
        json_str(o, src, 0);
        fputs(",\"frames\":[", o);
        const struct kev_stack *s = &faults[i].s;
        for (unsigned k = 0; faults[i].have_stack && k < s->depth; k++) {
            char frame[512];
            syms_pc(s->pcs[k], k > 0, frame, sizeof(frame), NULL, 0);
            fputs(k ? "," : "", o);
            json_str(o, frame, 0);
        }
        fprintf(o, "],\"cut_short\":\"%s\"}",
                faults[i].have_stack && s->ended ? kev_stack_ended_name(s->ended) : "");
    }
    fprintf(o, "],\"more\":%llu}", (unsigned long long)more);
}
