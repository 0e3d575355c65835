// SPDX-License-Identifier: MIT
// USDT probes: placing them in programs' text and firing them (kernel/kusdt.h, docs/usdt.md).
// A site, and its semaphore, is only one the program's own notes name, as its image holds them
// (the header's usdt_notes), and only for a consumer that may trace the program (privileged,
// or running it: kpid.c's rule); what the D object says is checked against them.
#include <kernel/kusdt.h>
#include <kernel/arch_trace.h>
#include <kernel/kdtrace.h>
#include <kernel/ktrace.h>
#include <kernel/kev_emit.h>
#include <kernel/kview.h>
#include <d/dvm.h>
#include <d/dprobes.h>
#include <d/dusdt.h>
#include <d/dusdt_note.h>
#include <uapi/kerrno.h>
#include <arch_usdt.h>

#if ARCH_USDT_LEN == 4
typedef uint32_t usdt_insn_t;
#elif ARCH_USDT_LEN == 2
typedef uint16_t usdt_insn_t;
#else
typedef uint8_t usdt_insn_t;
#endif

struct site {
    uint32_t addr;
    uint32_t orig;              // the unit the site held before the trap (its note's no-op)
    uint32_t sem;               // its is-enabled semaphore (a u16 in the program's memory), or 0
    uint16_t pidx;              // the D program's probe index
    uint16_t nargs;
    const struct kapp_header *app;
    struct dusdt_arg args[DUSDT_MAXARGS];
};

static struct site sites[KUSDT_MAX_SITES];
static unsigned nsites;
static bool raised;             // the sites' semaphores are raised (once all are placed)
struct kusdt_stats kusdt_stats;

// The program's text: after its header, up to the image of its data.
static bool in_text(const struct kapp_header *h, uint32_t addr, unsigned len)
{
    uint32_t start = (uint32_t)(uintptr_t)h + (uint32_t)sizeof(*h);
    return addr >= start && addr + len <= h->data_source && addr + len > addr;
}

// The program's static variables (.data and .bss), where a semaphore is declared.
static bool in_range(uint32_t addr, unsigned len, uint32_t start, uint32_t size)
{
    return addr >= start && addr + len <= start + size && addr + len > addr;
}
static bool in_statics(const struct kapp_header *h, uint32_t addr, unsigned len)
{
    return in_range(addr, len, h->data_start, h->data_size) ||
           in_range(addr, len, h->bss_start, h->bss_size);
}

// Raises (by 1) or lowers every placed site's semaphore in process p, which runs the site's
// program: what the program's USDT_ENABLED reads. One process runs a program at a time, at
// the addresses it was linked for (kernel/proc.c), so the semaphore's address is p's.
static void semaphores(const struct proc *p, int by)
{
    if (!raised)
        return;
    for (unsigned i = 0; i < nsites; i++) {
        volatile uint16_t *sem = (volatile uint16_t *)(uintptr_t)sites[i].sem;
        if (sem && sites[i].app == p->app && (by > 0 || *sem > 0))
            *sem = (uint16_t)(*sem + by);
    }
}

// The note of program h's image that names the site at addr, in *n: true; false if none does.
// The notes are the program's own, loaded with its image (the program's pointers are the
// kernel's width: the same architecture).
static bool note_of(const struct kapp_header *h, uint32_t addr, struct dusdt_note *n)
{
    if (h->usdt_notes_end <= h->usdt_notes)
        return false;
    const uint8_t *notes = (const uint8_t *)(uintptr_t)h->usdt_notes;
    uint32_t size = h->usdt_notes_end - h->usdt_notes, off = 0;
    while (dusdt_note_next(notes, size, (unsigned)sizeof(uintptr_t), &off, n) > 0)
        if (n->pc == addr)
            return true;
    return false;
}

static void semaphores_all(int by)
{
    for (unsigned i = 0; i < KMAX_PROCS; i++)
        if (k_procs[i].state == PROC_ALIVE)
            semaphores(&k_procs[i], by);
}

void kusdt_proc_start(const struct proc *p)
{
    semaphores(p, 1);
}

// The instruction at addr in a program's text, its ARCH_USDT_LEN bytes (no byte past it: an
// x86 site is 1 byte, and may be its text's last).
static usdt_insn_t insn_at(uint32_t addr)
{
    return *(const volatile usdt_insn_t *)(uintptr_t)addr;
}

static const struct site *find(uint32_t pc)
{
    for (unsigned i = 0; i < nsites; i++)
        if (sites[i].addr == pc)
            return &sites[i];
    return NULL;
}

int kusdt_enable(struct dvm_state *st, const struct proc *consumer, const char **why)
{
    static char msg[128];
    const uint32_t nop = ARCH_USDT_NOP, trap = ARCH_USDT_TRAP;
    const unsigned len = ARCH_USDT_LEN;
    nsites = 0;
    for (uint32_t k = 0; k < st->obj.hdr->dh_nprobes; k++) {
        const struct dif_probe *pr = &st->obj.probes[k];
        if (!DPROBE_IS_USDT(pr->dp_id))
            continue;
        const char *prov = dif_str(&st->obj, pr->dp_prov), *name = dif_str(&st->obj, pr->dp_name);
        const char *mod = dif_str(&st->obj, pr->dp_mod);
        const struct kapp_header *h = proc_find_app(mod);
        uint32_t addr = (uint32_t)pr->dp_period, sem = (uint32_t)(pr->dp_period >> 32);
        const char *bad = "";
        struct site *s = &sites[nsites];
        struct dusdt_note n;
        int e = 0;
        if (nsites == KUSDT_MAX_SITES) {
            ksnprintf(msg, sizeof(msg), "%s:%s::%s: more than %u USDT sites enabled at once",
                      prov, mod, name, KUSDT_MAX_SITES);
            e = -ENOSPC;
        } else if (!h) {
            ksnprintf(msg, sizeof(msg), "%s:%s::%s: no program named %s", prov, mod, name, mod);
            e = -ENOENT;
        } else if (!(consumer->app->flags & KAPP_F_PRIV) && consumer->app != h) {
            // who may: a privileged consumer, or one that runs the program (kpid.c's rule)
            ksnprintf(msg, sizeof(msg), "%s:%s::%s: failed to grab a process of %s: "
                      "permission denied", prov, mod, name, mod);
            e = -EPERM;
        } else if (!note_of(h, addr, &n) || kstrncmp(n.prov, prov, SIZE_MAX) ||
                   kstrncmp(n.name, name, SIZE_MAX) ||
                   (addr & (len - 1u)) || !in_text(h, addr, len) || insn_at(addr) != nop) {
            // the image's note names this probe here, and the unit holds the no-op sys/sdt.h
            // wrote: an instruction boundary of the program's code, no constant that happens
            // to equal the no-op or the trap, no halfword inside another instruction
            ksnprintf(msg, sizeof(msg), "%s:%s::%s: %p is not a USDT site of %s", prov, mod,
                      name, (void *)(uintptr_t)addr, mod);
            e = -EINVAL;
        } else if (sem != n.sem || (sem && ((sem & 1u) || !in_statics(h, sem, 2)))) {
            // the semaphore is the one the image's note names for the site, a variable
            ksnprintf(msg, sizeof(msg), "%s:%s::%s: semaphore %p is not a semaphore of %s",
                      prov, mod, name, (void *)(uintptr_t)sem, mod);
            e = -EINVAL;
        } else if (find(addr)) {
            continue;       // the same site named twice: placed once
        } else {
            int n = dusdt_parse(dif_str(&st->obj, pr->dp_pad), arch_usdt_syntax(), s->args,
                                &bad);
            if (n < 0) {
                ksnprintf(msg, sizeof(msg), "%s:%s::%s: argument place '%s' not understood",
                          prov, mod, name, bad);
                e = -EINVAL;
            } else {
                s->nargs = (uint16_t)n;
            }
        }
        if (e < 0) {
            kusdt_disable();
            *why = msg;
            return e;
        }
        s->addr = addr;
        s->orig = insn_at(addr);
        s->sem = sem;
        s->pidx = (uint16_t)k;
        s->app = h;
        nsites++;
    }
    for (unsigned i = 0; i < nsites; i++)
        arch_usdt_write(sites[i].addr, trap);
    raised = true;
    semaphores_all(1);
    kusdt_stats.placed = nsites;
    return 0;
}

void kusdt_disable(void)
{
    semaphores_all(-1);
    raised = false;
    for (unsigned i = 0; i < nsites; i++)     // the unit that was there, where the trap is
        if (insn_at(sites[i].addr) == ARCH_USDT_TRAP)
            arch_usdt_write(sites[i].addr, sites[i].orig);
    nsites = 0;
    kusdt_stats.placed = 0;
}

static uint64_t arg_value(struct thread *t, const struct dusdt_arg *a)
{
    switch (a->kind) {
    case DUSDT_REG:
        return dusdt_extend(a, arch_usdt_reg(t, a->reg));
    case DUSDT_IMM:
        return dusdt_extend(a, (uint64_t)(int64_t)a->value);
    case DUSDT_MEM: {
        uintptr_t base = a->reg == DUSDT_NOREG ? 0 : arch_usdt_reg(t, a->reg);
        uintptr_t at = base + (uintptr_t)(intptr_t)a->value;
        uint32_t addr = (uint32_t)at;
        unsigned size = (unsigned)(a->size < 0 ? -a->size : a->size);
        uint64_t v = 0;
        if (at != addr || proc_copy_in(t->proc, &v, addr, size) < 0)
            return 0;       // (a place the program's own code just read: not expected)
        return dusdt_extend(a, v);
    }
    default:
        return 0;
    }
}

bool kusdt_fault(struct thread *t)
{
    uint32_t pc;
    if (!t->proc || !arch_usdt_trapped(t, &pc))
        return false;
    const struct site *s = find(pc);
    if (!s) {
        // A site removed after this thread fetched its trap holds the no-op again: resume
        // there. Any other undefined instruction is the program's own fault.
        struct dusdt_note n;
        if (!in_text(t->proc->app, pc, ARCH_USDT_LEN) || insn_at(pc) != ARCH_USDT_NOP ||
            !note_of(t->proc->app, pc, &n))
            return false;
        kusdt_stats.stale++;
        arch_usdt_resume(t, pc + ARCH_USDT_LEN);
        return true;
    }
    if (s->app != t->proc->app)
        return false;
    uint64_t args[DVM_NARGS] = { 0 };
    for (unsigned i = 0; i < s->nargs; i++)
        args[i] = arg_value(t, &s->args[i]);
    kusdt_stats.fired++;
    // the firing and its USDT event together (kev.h, kev_emit.h), in the capture's order
    uint32_t w[2 + 2 * DUSDT_MAXARGS] = { pc, s->nargs };
    for (unsigned i = 0; i < s->nargs; i++) {
        w[2 + 2 * i] = (uint32_t)args[i];
        w[3 + 2 * i] = (uint32_t)(args[i] >> 32);
    }
    kev_emit_probe_event(KTRACE_ON(KEV_C_SYSTEM), KEV_SYS_USDT, w, 2u + 2u * s->nargs, s->pidx,
                         args);
    arch_usdt_resume(t, pc + ARCH_USDT_LEN);
    return true;
}
