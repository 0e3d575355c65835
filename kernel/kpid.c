// SPDX-License-Identifier: MIT
// pid probes: placing them on programs' functions and firing them (kernel/kpid.h,
// docs/pid.md). The sites are written with USDT's writer (arch_usdt_write: the MPU opened on
// the site alone, for the kernel alone) and come to the kernel through the same thread-fault
// path; the trap differs from USDT's where the architecture allows (arch_pid_trapped), and
// each provider knows its own sites by address (on x86 both traps are int3; a pid site never
// holds USDT's nop: d/dpid_i386.h). A site's trap is ARCH_PID_LEN bytes (<arch_usdt.h>) over
// the first of its instruction's. On several CPUs each write is made while no other CPU can
// run a program's text (kcpus_hold: docs/pid.md, "Several CPUs").
#include <kernel/kpid.h>
#include <kernel/arch_trace.h>
#include <kernel/kusdt.h>
#include <kernel/kdtrace.h>
#include <kernel/ktrace.h>
#include <kernel/kev_emit.h>
#include <kernel/kview.h>
#include <d/dvm.h>
#include <d/dprobes.h>
#include <uapi/kerrno.h>
#include <arch_usdt.h>

struct site {
    uint32_t addr;
    uint32_t insn;              // the displaced instruction
    uint32_t func;              // a return's function (its first instruction); 0: an entry
    uint16_t pidx;              // the D program's probe index
    uint8_t len;
    uint8_t alias;              // an earlier site is the same function's, same process, same
                                // kind (a symbol of the same address): its event is this one's
    int32_t pid;                // the probe's process; 0: $target, not bound yet
    const struct kapp_header *app;
};

#if ARCH_PID_LEN == 4
typedef uint32_t pid_insn_t;
#elif ARCH_PID_LEN == 2
typedef uint16_t pid_insn_t;
#else
typedef uint8_t pid_insn_t;
#endif

// Sorted by address once placed (kpid_enable sorts it, kpid_proc_gone keeps the order), so
// that a trap finds its sites by bisection, whatever the number placed.
static struct site sites[KPID_MAX_SITES];
static unsigned nsites;
struct kpid_stats kpid_stats;

// The program's text: after its header, up to the image of its data.
static bool in_text(const struct kapp_header *h, uint32_t addr, unsigned len)
{
    uint32_t start = (uint32_t)(uintptr_t)h + (uint32_t)sizeof(*h);
    return addr >= start && addr + len <= h->data_source && addr + len > addr;
}

// The trap's ARCH_PID_LEN bytes at addr, in a program's text.
static pid_insn_t insn_at(uint32_t addr)
{
    return *(const volatile pid_insn_t *)(uintptr_t)addr;
}

// The site placed whose instruction holds [addr, addr + len) in part, at another address: a
// trap there would be read as another instruction's bytes (on x86 the trap is one byte and the
// rest of a displaced instruction is read from the text).
static const struct site *overlapped(uint32_t addr, unsigned len)
{
    for (unsigned i = 0; i < nsites; i++) {
        uint32_t a = sites[i].addr;
        if (a != addr && ((addr > a && addr < a + sites[i].len) || (a > addr && a < addr + len)))
            return &sites[i];
    }
    return NULL;
}

// A site placed before s for another name of the same function (the same address, process
// and kind): one trap writes one FUNC event for them (the capture's reader fires every name
// of the function at it), and each probe fires.
static bool alias_of_placed(const struct site *s)
{
    for (const struct site *o = sites; o < s; o++)
        if (o->addr == s->addr && o->pid == s->pid && o->func == s->func && o->app == s->app)
            return true;
    return false;
}

// The site placed at addr for another probe (the same function named for two processes, two
// symbols of one address, or a return two functions share): its displaced instruction, which
// the text no longer holds. Each such probe has its own site, and a trap there fires them all.
static const struct site *placed_at(uint32_t addr)
{
    for (unsigned i = 0; i < nsites; i++)
        if (sites[i].addr == addr)
            return &sites[i];
    return NULL;
}

// The first site at addr or above.
static unsigned first_at(uint32_t addr)
{
    unsigned lo = 0, hi = nsites;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2u;
        if (sites[mid].addr < addr)
            lo = mid + 1u;
        else
            hi = mid;
    }
    return lo;
}

// Sorts the sites by address, those at one address in their order (an insertion sort: once per
// KDT_GO, on at most KPID_MAX_SITES).
static void sort_sites(void)
{
    for (unsigned i = 1; i < nsites; i++) {
        struct site s = sites[i];
        unsigned j = i;
        for (; j > 0 && sites[j - 1].addr > s.addr; j--)
            sites[j] = sites[j - 1];
        sites[j] = s;
    }
}

// A pid probe as its clauses name it, for its refusal's message.
struct pid_name {
    const char *prov, *mod, *fn, *pn;
};

// The reason KDT_GO refused a pid probe, kept for the consumer (*why) until the next KDT_GO.
static char refusal[112];

// refusal written for the probe named n: "provider:module:function:name: " and fmt's text. e.
static int refuse(const struct pid_name *n, int e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int refuse(const struct pid_name *n, int e, const char *fmt, ...)
{
    int at = ksnprintf(refusal, sizeof(refusal), "%s:%s:%s:%s: ", n->prov, n->mod, n->fn, n->pn);
    if (at < 0 || (size_t)at >= sizeof(refusal))
        return e;
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(refusal + at, sizeof(refusal) - (size_t)at, fmt, ap);
    va_end(ap);
    return e;
}

// The program *hp that the probe names, when the process it asks for (want; or $target, bound
// at its trap) is alive and runs it and the consumer may probe it: 0, or the refusal.
static int probe_target(const struct pid_name *n, uint32_t want, const struct proc *consumer,
                        const struct kapp_header **hp)
{
    const struct kapp_header *h = proc_find_app(n->mod);
    const struct proc *p = want == DPROBE_PID_TARGET ? NULL : proc_by_pid((int)want);
    if (!h)
        return refuse(n, -ENOENT, "no program named %s", n->mod);
    if (want != DPROBE_PID_TARGET && (!p || p->state != PROC_ALIVE || p->exiting))
        return refuse(n, -ESRCH, "failed to grab process %u: no such process", (unsigned)want);
    if (p && p->app != h)
        return refuse(n, -ESRCH, "process %u does not run %s", (unsigned)want, n->mod);
    if (!(consumer->app->flags & KAPP_F_PRIV) && consumer->app != h) {
        // who may: a privileged consumer, or one that runs the probed program (p runs h
        // here; pid$target binds to h's first process at its trap, so h decides it too)
        if (p)
            return refuse(n, -EPERM, "failed to grab process %u: permission denied",
                          (unsigned)want);
        return refuse(n, -EPERM, "failed to grab a process of %s: permission denied", n->mod);
    }
    *hp = h;
    return 0;
}

// The instruction site s displaces at addr, in h's text: taken from a site placed there
// already, else decoded; one the kernel can run out of line (a return's, one it can run as
// the function's return at func). 0, or the refusal.
static int site_insn(struct site *s, const struct pid_name *n, const struct kapp_header *h,
                     uint32_t addr, bool ret, uint32_t func)
{
    unsigned ulen;
    const struct site *other = placed_at(addr);
    bool unrunnable = false;
    if ((addr & (ARCH_PID_ALIGN - 1u)) || !in_text(h, addr, 4) ||   // (decoded: 4)
        (ret && (func > addr || !in_text(h, func, ARCH_PID_LEN))))
        return refuse(n, -EINVAL, "%p is not in the text of %s", (void *)(uintptr_t)addr, n->mod);
    if (other) {
        s->insn = other->insn;
        s->len = other->len;
        unrunnable = ret && !arch_pid_is_return(s->insn, s->len);
    } else if (insn_at(addr) == (pid_insn_t)ARCH_USDT_TRAP ||
               !arch_pid_decode(addr, &s->insn, &ulen) ||
               !in_text(h, addr, ulen) || (ret && !arch_pid_is_return(s->insn, ulen))) {
        unrunnable = true;
    } else if ((other = overlapped(addr, ulen)) != NULL) {
        return refuse(n, -EINVAL, "%p is inside the instruction probed at %p",
                      (void *)(uintptr_t)addr, (void *)(uintptr_t)other->addr);
    } else {
        s->len = (uint8_t)ulen;
    }
    if (unrunnable && ret)
        return refuse(n, -ENOTSUP, "%s cannot be probed: %p is not a return the kernel can run",
                      n->fn, (void *)(uintptr_t)addr);
    if (unrunnable)
        return refuse(n, -ENOTSUP, "%s cannot be probed: its first instruction cannot be run "
                      "out of line", n->fn);
    return 0;
}

// The next site, sites[nsites], made for the program's probe k: 0, or the refusal.
static int site_add(const struct dvm_state *st, uint32_t k, const struct proc *consumer)
{
    const struct dif_probe *pr = &st->obj.probes[k];
    bool ret = (pr->dp_id - DPROBE_PID_BASE) & 1u;
    const struct pid_name n = {
        dif_str(&st->obj, pr->dp_prov), dif_str(&st->obj, pr->dp_mod),
        dif_str(&st->obj, pr->dp_func), ret ? "return" : "entry",
    };
    uint32_t addr = (uint32_t)pr->dp_period, want = (uint32_t)(pr->dp_period >> 32);
    const struct kapp_header *h = NULL;
    if (nsites == KPID_MAX_SITES)
        return refuse(&n, -ENOSPC, "more than %u pid probes enabled at once", KPID_MAX_SITES);
    struct site *s = &sites[nsites];
    int e = probe_target(&n, want, consumer, &h);
    if (e == 0)
        e = site_insn(s, &n, h, addr, ret, pr->dp_pad);
    if (e < 0)
        return e;
    s->addr = addr;
    s->func = ret ? pr->dp_pad : 0;
    s->pidx = (uint16_t)k;
    s->pid = want == DPROBE_PID_TARGET ? 0 : (int32_t)want;
    s->app = h;
    s->alias = alias_of_placed(s);
    nsites++;
    return 0;
}

int kpid_enable(struct dvm_state *st, const struct proc *consumer, const char **why)
{
    nsites = 0;
    for (uint32_t k = 0; k < st->obj.hdr->dh_nprobes; k++) {
        if (!DPROBE_IS_PID(st->obj.probes[k].dp_id))
            continue;
        int e = site_add(st, k, consumer);
        if (e < 0) {
            kpid_disable();
            *why = refusal;
            return e;
        }
    }
    sort_sites();
    if (nsites)
        kview_hold_cpus();       // no other CPU at EL0 until this CPU lets the lock go
    for (unsigned i = 0; i < nsites; i++)
        arch_usdt_write(sites[i].addr, arch_pid_trap());
    kpid_stats.placed = nsites;
    return 0;
}

// Gives the site at addr its instruction back, if it holds the trap (the first to come off
// has held the others: one hold for them all).
static void restore(uint32_t addr, uint32_t insn, bool *held)
{
    if (insn_at(addr) != (pid_insn_t)arch_pid_trap())
        return;
    if (!*held)
        kview_hold_cpus();
    *held = true;
    arch_usdt_write(addr, insn);
}

void kpid_disable(void)
{
    bool held = false;
    for (unsigned i = 0; i < nsites; i++)
        restore(sites[i].addr, sites[i].insn, &held);
    nsites = 0;
    kpid_stats.placed = 0;
}

void kpid_proc_gone(const struct proc *p)
{
    unsigned keep = 0;
    bool held = false;
    for (unsigned i = 0; i < nsites; i++) {
        struct site s = sites[i];
        if (s.pid != p->pid) {
            sites[keep++] = s;
            continue;
        }
        bool still = false;     // another process's probe at the same instruction
        for (unsigned j = 0; j < nsites; j++)
            if (j != i && sites[j].addr == s.addr && sites[j].pid != p->pid)
                still = true;
        if (!still)
            restore(s.addr, s.insn, &held);
    }
    nsites = keep;
    kpid_stats.placed = keep;
}

// A pid trap no site holds: a site removed while this thread, trapped on another CPU, waited
// for the kernel lock (kpid_disable held every other CPU in the kernel, this one among them,
// past its trap). The text holds the instruction again: the thread resumes at it, unchanged.
// Where the trap is only known by its instruction (ARCH_PID_TRAP_SEEN 0: one CPU, nothing
// removed while a thread waits), the fault stands.
static bool stale(struct thread *t, uint32_t pc)
{
    if (!ARCH_PID_TRAP_SEEN || !in_text(t->proc->app, pc, ARCH_PID_LEN) ||
        insn_at(pc) == (pid_insn_t)arch_pid_trap())
        return false;
    kpid_stats.stale++;
    return true;
}

bool kpid_fault(struct thread *t)
{
    uint32_t pc;
    if (!t->proc || !arch_pid_trapped(t, &pc))
        return false;
    const struct site *run = NULL;
    bool fired = false;
    // a long table is bisected to the trap's first site; a short one is scanned from its start
    // (what the bisection would cost there); past the trap's address, no site of it is left
    for (unsigned i = nsites > 8u ? first_at(pc) : 0u; i < nsites; i++) {
        struct site *s = &sites[i];
        if (s->addr != pc) {
            if (s->addr > pc)
                break;
            continue;
        }
        if (s->app != t->proc->app)
            continue;
        run = s;
        if (!s->pid)    // pid$target: the first process of the program to call it
            for (unsigned j = 0; j < nsites; j++)
                if (!sites[j].pid && sites[j].app == s->app)
                    sites[j].pid = t->proc->pid;
        if (s->pid != t->proc->pid)
            continue;
        // entry: the arguments as the architecture's calling convention passes them;
        // return: the return's offset in the function and the value (the return value
        // register, DWARF's 0, before the return runs: the host takes no return that
        // reloads it)
        uint64_t args[DVM_NARGS] = { 0 };
        if (s->func) {
            args[0] = pc - s->func;
            args[1] = arch_usdt_reg(t, 0);
        } else {
            arch_pid_entry_args(t, args);
        }
        kpid_stats.fired++;
        fired = true;
        if (!KTRACE_ON(KEV_C_SYSTEM) || s->alias) {
            kdt_fire_probe(s->pidx, args);
            continue;
        }
        // the firing and its FUNC event from one call (as fbt's, kernel/kev_emit.h): the
        // function (as the symbol table gives it: ARCH_PID_FUNC_BIT), the call site, and for
        // a return its offset and value
        uint32_t fn = (s->func ? s->func : s->addr) | ARCH_PID_FUNC_BIT;
        uint32_t w[4] = { fn, 0, (uint32_t)args[0], (uint32_t)args[1] };
        w[1] = s->func ? arch_pid_return_address(t, s->insn, s->len) : arch_pid_caller(t);
        kev_emit_probe_event(true, s->func ? KEV_SYS_FUNC_EXIT : KEV_SYS_FUNC_ENTER, w,
                             s->func ? 4u : 2u, s->pidx, args);
    }
    if (!run)
        return stale(t, pc);
    if (!fired)
        kpid_stats.passed++;
    return arch_pid_emulate(t, pc, run->insn, run->len);
}
