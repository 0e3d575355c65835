// SPDX-License-Identifier: MIT
// The kernel's panic path: the message, the recorder's event (kernel/kpanic.h: the tracing
// layer installs it, kernel/ktrace_panic.c), and the stop. In flight-recorder mode the CPU
// halts in place instead of ending the run, so that a debugger (QEMU's gdbstub, OpenOCD,
// J-Link) can attach and kevdump read the ring; any other run halts the board as before, so
// that a panicking test under QEMU still ends at once. A panic inside the panic path goes
// straight to the stop.
#include <kernel/kpanic.h>
#include <kernel/board.h>
#include <arch_cpu.h>

static bool panicking;
static kpanic_recorder_fn recorder;

void kpanic_set_recorder(kpanic_recorder_fn fn)
{
    recorder = fn;
}

// f: the fault, or NULL for a kpanic() call from pc.
static _Noreturn void panic_stop(const struct arch_fault_where *f, uint64_t pc, const char *fmt,
                                 va_list ap)
{
    char buf[160];
    kvsnprintf(buf, sizeof(buf), fmt, ap);
    bool again = panicking;
    panicking = true;
    // The message first: if recording the event faults too, the panic inside the panic path
    // prints its own message after this one, and the cause is not lost.
    kprintf("\nkernel panic: %s\n", buf);
    if (!again && recorder && recorder(f, pc, buf)) {
        kprintf("kernel: halted in place for a debugger (flight recorder or incident record): "
                "kevdump reads them\n");
        arch_halt_in_place();
    }
    board_halt(99);
}

_Noreturn void kpanic(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    panic_stop(NULL, (uintptr_t)__builtin_return_address(0), fmt, ap);
}

_Noreturn void kpanic_fault(const struct arch_fault_where *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    panic_stop(w, w->pc, fmt, ap);
}
