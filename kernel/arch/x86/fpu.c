// SPDX-License-Identifier: MIT
// x87/SSE state per thread, x86, so that none leaks between processes (docs/hostile.md), switched
// lazily: the FPU holds the state of one thread, its owner. Whenever the kernel resumes a thread
// other than the owner it sets CR0.TS, so that thread's first x87, MMX or SSE instruction traps
// (#NM, vector 7); the trap saves the owner's registers into its slot (FXSAVE), loads the new
// thread's (FXRSTOR, or a clean FNINIT state for a thread that never used the FPU) and makes it
// the owner. A thread that uses no floating point costs nothing per switch but a compare; one
// that does pays one trap per switch back to it (docs/PERFORMANCE.md, x86_fpu_switch_added_insns).
//
// Invariants (the kernel is never interrupted on this uniprocessor port, so no locking):
//   - `owner` is the thread whose registers are in the FPU, or NULL (nobody's: a clean state
//     is loaded before anyone reads it);
//   - CR0.TS is clear exactly when k_current == owner at the return to a thread
//     (x86_fpu_resume, inlined at the end of every kernel entry: a few instructions);
//   - a slot's saved state belongs to the thread in that slot: arch_thread_setup calls
//     x86_fpu_new_thread, which forgets the previous thread's state (and ownership), so a new
//     thread, of any process, starts from FNINIT's state and never sees its slot's past.
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <x86.h>

#define CR0_MP (1u << 1)
#define CR0_EM (1u << 2)
#define CR0_TS (1u << 3)
#define CR0_NE (1u << 5)    // x87 errors as #MF (vector 16), not the PC's FERR# / IRQ 13
#define CR4_OSFXSR     (1u << 9)
#define CR4_OSXMMEXCPT (1u << 10)
#define CPUID_FXSR (1u << 24)
#define MXCSR_DEFAULT 0x1f80u       // every SIMD exception masked, round to nearest

struct fpu_area {
    uint8_t b[512];                 // FXSAVE's layout (FNSAVE's 108 bytes without FXSR)
} __attribute__((aligned(16)));

static struct fpu_area saved[KMAX_THREADS];
static struct fpu_area clean;           // FNINIT's state with every data register zero
static bool has_state[KMAX_THREADS];    // the slot's thread has used the FPU
struct thread *x86_fpu_owner;
bool x86_fpu_ts;                        // a copy of CR0.TS (reading CR0 costs more)
static bool fxsr;                       // FXSAVE/FXRSTOR and SSE available

static unsigned slot_of(const struct thread *t) { return (unsigned)(t - k_threads); }

void x86_fpu_set_ts(bool on)
{
    uint32_t cr0;
    __asm__ volatile("movl %%cr0, %0" : "=r"(cr0));
    cr0 = on ? cr0 | CR0_TS : cr0 & ~CR0_TS;
    __asm__ volatile("movl %0, %%cr0" :: "r"(cr0) : "memory");
    x86_fpu_ts = on;
}

// Boot: the FPU on (no emulation; WAIT honours TS), SSE enabled where FXSR exists, TS set so
// that the first thread to use the FPU traps and gets a clean state. NE: a thread's unmasked
// x87 exception is a #MF of its own, which ends it (fault.c); without NE the PC's legacy path
// (FERR# to IRQ 13, not a line this kernel takes) would let it run on, its exception never
// taken.
void x86_fpu_init(void)
{
    uint32_t a = 1, b, c, d, cr0, cr4;
    __asm__ volatile("cpuid" : "+a"(a), "=b"(b), "=c"(c), "=d"(d));
    fxsr = (d & CPUID_FXSR) != 0;
    __asm__ volatile("movl %%cr0, %0" : "=r"(cr0));
    cr0 = (cr0 | CR0_MP | CR0_NE) & ~CR0_EM;
    __asm__ volatile("movl %0, %%cr0" :: "r"(cr0));
    if (fxsr) {
        __asm__ volatile("movl %%cr4, %0" : "=r"(cr4));
        __asm__ volatile("movl %0, %%cr4" :: "r"(cr4 | CR4_OSFXSR | CR4_OSXMMEXCPT));
    }
    // FNINIT alone would leave the data registers' bits, which MMX reads whatever their tags
    // say: a thread's first state is this image, control words at their defaults, all zero.
    if (fxsr) {
        clean.b[0] = 0x7f, clean.b[1] = 0x03;               // FCW 0x037f; FTW 0: all empty
        clean.b[24] = MXCSR_DEFAULT & 0xff, clean.b[25] = MXCSR_DEFAULT >> 8;
    } else {
        clean.b[0] = 0x7f, clean.b[1] = 0x03;               // FCW
        clean.b[8] = 0xff, clean.b[9] = 0xff;               // FTW: all empty
    }
    x86_fpu_owner = NULL;
    x86_fpu_set_ts(true);
}

void x86_fpu_new_thread(struct thread *t)
{
    has_state[slot_of(t)] = false;
    if (x86_fpu_owner == t)
        x86_fpu_owner = NULL;   // it holds the old thread's registers: never to be saved
}

// #NM from ring 3: hand the FPU to k_current. Returns false when the trap was not ours (TS
// clear: a real "no FPU" fault, which kills the process as before).
bool x86_fpu_trap(void)
{
    if (!x86_fpu_ts)
        return false;
    __asm__ volatile("clts");
    x86_fpu_ts = false;
    struct thread *t = k_current;
    if (x86_fpu_owner == t)
        return true;
    if (x86_fpu_owner) {
        struct fpu_area *o = &saved[slot_of(x86_fpu_owner)];
        if (fxsr)
            __asm__ volatile("fxsave %0" : "=m"(*o));
        else
            __asm__ volatile("fnsave %0" : "=m"(*o));
        has_state[slot_of(x86_fpu_owner)] = true;
    }
    unsigned s = slot_of(t);
    const struct fpu_area *in = has_state[s] ? &saved[s] : &clean;
    if (fxsr)
        __asm__ volatile("fxrstor %0" :: "m"(*in));
    else
        __asm__ volatile("frstor %0" :: "m"(*in));
    x86_fpu_owner = t;
    return true;
}
