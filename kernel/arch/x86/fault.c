// SPDX-License-Identifier: MIT
// Fault reporting, x86. An exception in ring 3 kills the faulting process (kernel_entry with
// KENTRY_FAULT); arch_fault_info() says what happened from the saved frame (vector, error code,
// eip) and cr2. An exception in ring 0 is a kernel bug: x86_kernel_fault() reports it and halts.
#include <kernel/arch.h>
#include <kernel/arch_upcall.h>
#include <uapi/kapi.h>
#include <x86.h>
#include <kernel/kpanic.h>
#include <fault_decode.h>

uint32_t x86_fault_cr2;     // cr2 at the last kernel entry (entry.S)

static const char *const names[] = {
    [0] = "divide error", [1] = "debug exception", [2] = "NMI", [3] = "breakpoint",
    [4] = "overflow", [5] = "bound range exceeded", [6] = "invalid opcode",
    [7] = "no FPU", [8] = "double fault", [10] = "invalid TSS", [11] = "segment not present",
    [12] = "stack-segment fault", [13] = "general protection fault", [14] = "page fault",
    [16] = "x87 floating-point error", [17] = "alignment check", [18] = "machine check",
    [19] = "SIMD floating-point error",
};

static const char *vector_name(unsigned v)
{
    return v < ARRAY_SIZE(names) && names[v] ? names[v] : "exception";
}

int arch_fault_info(char *buf, size_t size)
{
    const struct arch_context *c = &k_current->ctx;
    void *pc = (void *)(uintptr_t)c->eip;

    switch (c->vector) {
    case 14:
        ksnprintf(buf, size, "page fault %s %p (%s), pc %p",
                  (c->error & 16) ? "executing" : (c->error & 2) ? "writing" : "reading",
                  (void *)(uintptr_t)x86_fault_cr2,
                  (c->error & 1) ? "protection" : "not mapped", pc);
        return KSIG_SEGV;
    case 13:
        ksnprintf(buf, size, "general protection fault (error %x), pc %p", (unsigned)c->error, pc);
        return KSIG_SEGV;
    case 0:
        ksnprintf(buf, size, "divide by zero at pc %p", pc);
        return KSIG_ILL;
    case 4: case 5: case 6: case 7: case 16: case 19:
        ksnprintf(buf, size, "%s at pc %p", vector_name(c->vector), pc);
        return KSIG_ILL;
    case 17:
        ksnprintf(buf, size, "alignment check, pc %p", pc);
        return KSIG_BUS;
    default:
        ksnprintf(buf, size, "%s (vector %u, error %x), pc %p", vector_name(c->vector),
                  (unsigned)c->vector, (unsigned)c->error, pc);
        return KSIG_SEGV;
    }
}

_Noreturn void x86_kernel_fault(const struct arch_context *f)
{
    // The KPANIC event's kind and address: the same decoding as a thread's fault (fault_where.c).
    struct arch_fault_where w;
    x86_fault_decode(f->vector, f->error, x86_fault_cr2, &w);
    w.pc = f->eip;
    kpanic_fault(&w,
                 "fault in kernel: %s (vector %u, error %08x) pc %08x cr2 %08x eax %08x esp %08x",
                 vector_name(f->vector), (unsigned)f->vector, (unsigned)f->error, (unsigned)f->eip,
                 (unsigned)x86_fault_cr2, (unsigned)f->eax, (unsigned)f->esp_pushal);
}
