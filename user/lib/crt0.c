// SPDX-License-Identifier: MIT
// Start of every user program and of every thread it creates. The kernel has already loaded
// .data and cleared .bss (it owns the program's memory layout); what is left is the C
// library's thread-local block and constructors. picolibc's thread-local storage is the
// .tdata/.tbss of the image itself, shared by the process's threads (so errno is too).
#include <kern.h>
#include <stdlib.h>

extern char __tls_base[];
extern void _set_tls(void *tls);
extern void __libc_init_array(void);
extern int main(int argc, char **argv);

static uint32_t spawn_arg;

uint32_t ProcArg(void)
{
    return spawn_arg;
}

// r0 carries the spawn argument (ProcSpawn's third parameter).
void _start(uint32_t arg);
void _start(uint32_t arg)
{
    static char *argv[] = { NULL, NULL };
    spawn_arg = arg;
    _set_tls(__tls_base);
    __libc_init_array();
    exit(main(0, argv));
}

void __kthread_start(thread_fn fn, void *arg);
void __kthread_start(thread_fn fn, void *arg)
{
    ThreadExit(fn(arg));
}
