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

void _start(void);
void _start(void)
{
    static char *argv[] = { NULL, NULL };
    _set_tls(__tls_base);
    __libc_init_array();
    exit(main(0, argv));
}

void __kthread_start(thread_fn fn, void *arg);
void __kthread_start(thread_fn fn, void *arg)
{
    ThreadExit(fn(arg));
}
