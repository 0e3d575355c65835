// SPDX-License-Identifier: MIT
// The tracing layer's state (kernel/ktrace_state.h): the kernel's ring, the hooks' flags, the
// inline paths' words, and the step that brings them up to date with the ring and the D
// provider (ktrace_sync, inline there: the out-of-line changes are here). Written under the
// kernel lock's exclusive side, or by a CPU for its own exit key; read by every hook.
#include <kernel/ktrace_state.h>
#include <kernel/arch.h>

// Each CPU's exit key (cpu.h trace_ran): the thread its last traced exit returned to, and
// KTRACE_RAN_D while the D program needs the exits (ktrace_state.h), so that every traced exit
// reaches ktrace_switched (D's remain-cpu, on-cpu). ktrace_ran_d: the bit as ktrace_sync last
// set it.
bool ktrace_ran_d;

// The classes ktrace_sync last gave the hooks (kernel/ktrace_state.h).
uint32_t ktrace_synced_classes = 0xffffffffu;

// In the probe area (ktrace_probe.c): its buffers' table is what a reader outside reads.
struct trace_ring ktrace __attribute__((section(".probe")));

uint8_t ktrace_cls_on[KEV_NCLASS];

uint32_t ktrace_kernel_on;

struct ktrace_hot ktrace_hot;

// Sets every CPU's bit to d; with forget, forgets their threads too (a capture starts: each
// CPU's next traced exit writes an ONCPU and tells the ring who runs there). Another CPU may
// be in its own exit meanwhile: at worst it keeps its old bit until its next switch.
__attribute__((noinline)) void ktrace_ran_set_all(bool forget, bool d)
{
    for (unsigned c = 0; c < KMAX_CPUS; c++)
        k_cpus[c].trace_ran = (forget ? 0 : k_cpus[c].trace_ran & ~KTRACE_RAN_D) | (d ? KTRACE_RAN_D : 0);
    ktrace_ran_d = d;
}

__attribute__((noinline)) void ktrace_sync_classes(uint32_t want)
{
    ktrace_synced_classes = want;
    for (unsigned c = 0; c < KEV_NCLASS; c++)
        ktrace_cls_on[c] = (uint8_t)((want >> c) & 1u);
}

// Arches whose entry tests ktrace_kernel_on have nothing to rewrite (kernel/arch.h).
__attribute__((weak)) void arch_trace_entry_select(bool traced)
{
    (void)traced;
}

__attribute__((noinline)) void ktrace_kernel_on_changed(uint32_t on)
{
    ktrace_kernel_on = on;
    arch_trace_entry_select(on);
}
