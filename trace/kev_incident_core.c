// SPDX-License-Identifier: MIT
// An incident record's threads as an ELF core file (trace/kev_incident.h, docs/incidents.md):
// what gdb opens beside the programs' ELF files to show every thread (`info threads`) and the
// faulting or triggering one's backtrace (`bt`). One NT_PRSTATUS note a thread, laid out as
// Linux's struct elf_prstatus of the machine (gdb and BFD read that layout whatever the
// OS: ARM 148 bytes, registers at 72; AArch64 392, at 112; i386 144, at 72), its LWP id the
// thread's trace word (pid << 16 | tid, so that gdb's "LWP n" names it), the trigger's thread
// first (gdb's current thread); each kept stack a PT_LOAD segment at the address it was read
// from. Streamed from the record in a few KB, for a board's logger. Freestanding: no libc.
#include <trace/kev_incident.h>

#define EM_386     3u
#define EM_ARM     40u
#define EM_AARCH64 183u
#define NT_PRSTATUS 1u

struct layout {
    unsigned machine, cls64, nregs, prsize, regoff, reg_bytes;
};

static int layout_of(const char *machine, struct layout *l)
{
    if (machine[0] == 'a' && machine[1] == 'a')         // aarch64le
        *l = (struct layout){ EM_AARCH64, 1, 34, 392, 112, 8 };
    else if (machine[0] == 'x')                         // x86
        *l = (struct layout){ EM_386, 0, 17, 144, 72, 4 };
    else if (machine[0] == 'a')                         // armv7m, armle
        *l = (struct layout){ EM_ARM, 0, 18, 148, 72, 4 };
    else
        return -1;
    return 0;
}

struct out {
    const struct kev_inc_io *io;
    uint64_t n;
    int err;
};

static void emit(struct out *o, const void *p, size_t n)
{
    o->n += n;
    if (!o->err && n && o->io->wr(o->io->wr_arg, p, n) < 0)
        o->err = 1;
}

static void put_le(uint8_t *b, uint64_t v, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        b[k] = (uint8_t)(v >> (8u * k));
}

static void zero(uint8_t *b, size_t n)
{
    for (size_t k = 0; k < n; k++)
        b[k] = 0;
}

static int thread_at(const struct kev_inc_view *v, const struct kev_inc_io *io, uint32_t i,
                     struct kev_inc_thread *t)
{
    return v->sec[i].type == KEV_INC_THREAD && v->sec[i].bytes >= sizeof(*t) &&
                   io->rd(io->rd_arg, v->sec[i].off, t, sizeof(*t)) == 0 &&
                   t->nregs <= KEV_INC_REGS_MAX &&
                   sizeof(*t) + 8u * t->nregs + t->stack_bytes <= v->sec[i].bytes
               ? 0 : -1;
}

// Thread section i's note: NT_PRSTATUS "CORE", its registers in the machine's order.
static void note(struct out *o, const struct kev_inc_view *v, uint32_t i,
                 const struct kev_inc_thread *t, const struct layout *l)
{
    uint8_t *b = o->io->buf;
    zero(b, 20u + l->prsize);
    put_le(b, 5, 4);                    // "CORE" and its NUL
    put_le(b + 4, l->prsize, 4);
    put_le(b + 8, NT_PRSTATUS, 4);
    b[12] = 'C', b[13] = 'O', b[14] = 'R', b[15] = 'E';
    uint8_t *d = b + 20;
    put_le(d, t->signal, 4);            // si_signo
    put_le(d + 12, t->signal, 2);       // pr_cursig
    put_le(d + (l->cls64 ? 32u : 24u), t->pid << 16 | t->tid, 4);     // pr_pid: the LWP
    put_le(d + (l->cls64 ? 36u : 28u), t->pid, 4);                    // pr_ppid: its process
    uint32_t w[2];
    for (unsigned k = 0; k < t->nregs && k < l->nregs; k++) {
        if (o->io->rd(o->io->rd_arg, v->sec[i].off + (uint32_t)sizeof(*t) + 8u * k, w, 8) < 0)
            o->err = 1;
        put_le(d + l->regoff + k * l->reg_bytes, (uint64_t)w[1] << 32 | w[0], l->reg_bytes);
    }
    if (l->machine == EM_ARM && t->nregs >= 1)      // orig_r0: r0, as at the kernel's entry
        for (unsigned k = 0; k < 4; k++)
            d[l->regoff + 17u * 4u + k] = d[l->regoff + k];
    emit(o, b, 20u + l->prsize);
}

// One program header: its type, file offset, address, size (in the file and in memory) and
// flags (4 R, 6 RW); 4-byte aligned.
static void phdr(struct out *o, const struct layout *l, uint32_t type, uint64_t off,
                 uint64_t vaddr, uint64_t size, uint32_t flags)
{
    uint8_t *b = o->io->buf;
    unsigned n = l->cls64 ? 56u : 32u;
    zero(b, n);
    put_le(b, type, 4);
    if (l->cls64) {
        put_le(b + 4, flags, 4);
        put_le(b + 8, off, 8);
        put_le(b + 16, vaddr, 8);
        put_le(b + 24, vaddr, 8);
        put_le(b + 32, size, 8);
        put_le(b + 40, size, 8);
        put_le(b + 48, 4, 8);
    } else {
        put_le(b + 4, off, 4);
        put_le(b + 8, vaddr, 4);
        put_le(b + 12, vaddr, 4);
        put_le(b + 16, size, 4);
        put_le(b + 20, size, 4);
        put_le(b + 24, flags, 4);
        put_le(b + 28, 4, 4);
    }
    emit(o, b, n);
}

// The ELF header of a core of nph program headers, right after it.
static void ehdr(struct out *o, const struct layout *l, uint32_t nph)
{
    uint8_t *b = o->io->buf;
    unsigned ehsize = l->cls64 ? 64u : 52u, phsize = l->cls64 ? 56u : 32u;
    zero(b, ehsize);
    b[0] = 0x7f, b[1] = 'E', b[2] = 'L', b[3] = 'F';
    b[4] = l->cls64 ? 2 : 1;            // ELFCLASS
    b[5] = 1;                           // little-endian
    b[6] = 1;                           // EV_CURRENT
    put_le(b + 16, 4, 2);               // ET_CORE
    put_le(b + 18, l->machine, 2);
    put_le(b + 20, 1, 4);
    if (l->cls64) {
        put_le(b + 32, ehsize, 8);      // e_phoff
        put_le(b + 52, ehsize, 2);
        put_le(b + 54, phsize, 2);
        put_le(b + 56, nph, 2);
        put_le(b + 58, 64, 2);          // e_shentsize
    } else {
        put_le(b + 28, ehsize, 4);
        put_le(b + 36, l->machine == EM_ARM ? 0x05000000u : 0u, 4);  // EABI 5
        put_le(b + 40, ehsize, 2);
        put_le(b + 42, phsize, 2);
        put_le(b + 44, nph, 2);
        put_le(b + 46, 40, 2);
    }
    emit(o, b, ehsize);
}

int kev_incident_core(const struct kev_inc_view *v, const struct kev_inc_io *io,
                      struct kev_inc_sum *sum, const char **why)
{
    struct layout l;
    if (layout_of(v->trig.machine, &l) < 0) {
        *why = "its machine is none this writer knows (armle, aarch64le, x86)";
        return -1;
    }
    // The threads with registers, and those with a stack kept.
    uint32_t nthreads = 0, nstacks = 0;
    uint64_t stack_bytes = 0;
    for (uint32_t i = 0; i < v->nsecs; i++) {
        struct kev_inc_thread t;
        if (v->sec[i].type != KEV_INC_THREAD)
            continue;
        if (thread_at(v, io, i, &t) < 0) {
            *why = "a thread's section does not hold what its header says";
            return -1;
        }
        nthreads += t.nregs != 0;
        nstacks += t.nregs && t.stack_bytes;
        stack_bytes += t.nregs ? t.stack_bytes : 0u;
    }
    if (!nthreads) {
        *why = "it holds no thread's registers";
        return -1;
    }
    unsigned ehsize = l.cls64 ? 64u : 52u, phsize = l.cls64 ? 56u : 32u;
    uint32_t nph = 1u + nstacks;
    uint64_t notes = (uint64_t)nthreads * (20u + l.prsize);
    uint64_t off_notes = ehsize + (uint64_t)nph * phsize, off_data = off_notes + notes;
    struct out o = { io, 0, 0 };
    uint8_t *b = io->buf;
    ehdr(&o, &l, nph);
    // The program headers: the notes, then each stack.
    phdr(&o, &l, 4, off_notes, 0, notes, 4);
    uint64_t at = off_data;
    for (uint32_t i = 0; i < v->nsecs; i++) {
        struct kev_inc_thread t;
        if (v->sec[i].type != KEV_INC_THREAD || thread_at(v, io, i, &t) < 0 || !t.nregs ||
            !t.stack_bytes)
            continue;
        phdr(&o, &l, 1, at, (uint64_t)t.stack_hi << 32 | t.stack_lo, t.stack_bytes, 6);
        at += t.stack_bytes;
    }
    // The notes, in the record's order (the trigger's thread is its first).
    for (uint32_t i = 0; i < v->nsecs && !o.err; i++) {
        struct kev_inc_thread t;
        if (v->sec[i].type == KEV_INC_THREAD && thread_at(v, io, i, &t) == 0 && t.nregs)
            note(&o, v, i, &t, &l);
    }
    // The stacks.
    for (uint32_t i = 0; i < v->nsecs && !o.err; i++) {
        struct kev_inc_thread t;
        if (v->sec[i].type != KEV_INC_THREAD || thread_at(v, io, i, &t) < 0 || !t.nregs)
            continue;
        uint32_t from = v->sec[i].off + (uint32_t)sizeof(t) + 8u * t.nregs;
        for (uint32_t done = 0; done < t.stack_bytes && !o.err;) {
            uint32_t n = t.stack_bytes - done < KEV_INC_SCRATCH ? t.stack_bytes - done
                                                                : KEV_INC_SCRATCH;
            if (io->rd(io->rd_arg, from + done, b, n) < 0)
                o.err = 1;
            emit(&o, b, n);
            done += n;
        }
    }
    if (o.err || o.n != off_data + stack_bytes) {
        *why = "the record could not be read, or the file written";
        return -1;
    }
    sum->nthreads = nthreads;
    return 0;
}
