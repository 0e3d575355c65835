// SPDX-License-Identifier: MIT
// Start of every user program and of every thread it creates. The kernel has already loaded
// .data and cleared .bss (it owns the program's memory layout); what is left is the C
// library's own set-up (libc_thread_init), the constructors, and main's argc and argv (the
// program's name and the ARGS of its app.mk).
#include <kern.h>
#include <stdlib.h>

extern void libc_thread_init(void);     // libc_picolibc.c / libc_newlib.c
extern void __libc_init_array(void);
extern int main(int argc, char **argv);

static uint32_t spawn_arg;

// The program's name and arguments (user/lib/apphdr.c, from its app.mk's ARGS).
extern char app_cmdline[];
extern const char app_name[];
extern char *app_argv[];
extern const int app_argv_size;

uint32_t ProcArg(void)
{
    return spawn_arg;
}

// r0 carries the spawn argument (ProcSpawn's third parameter).
void _start(uint32_t arg);
void _start(uint32_t arg)
{
    spawn_arg = arg;
    libc_thread_init();
    __libc_init_array();
    int argc = kargs_split(app_cmdline, app_name, app_argv, app_argv_size - 1);
    exit(main(argc, app_argv));
}

void __kthread_start(thread_fn fn, void *arg);
void __kthread_start(thread_fn fn, void *arg)
{
    ThreadExit(fn(arg));
}
