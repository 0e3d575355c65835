// SPDX-License-Identifier: MIT
// Each program's own command line. The host gives one command line for the whole boot (QEMU's
// -semihosting-config arg=..., or on a board without semihosting the boot loader's, e.g.
// QEMU -append on x86-pc); it holds one part per program, each starting with the program's
// name and separated by the word ";;":
//     appinit sensor ctrl ;; tracelogger -d1 -f trace.kev ;; dtrace -n 'user:::event { }'
// kargs() finds the part that names the caller. Words are split on spaces; '...' and "..."
// keep spaces and lose their quotes (the target's dtrace -n '...'). A command line longer
// than the caller's buffer is an error (-1, E2BIG), never a silent "no command line": the
// host answers SYS_GET_CMDLINE with an empty line when it has none and fails only when the
// line does not fit (QEMU's semihosting; kernel/shost.c without a host).
#include <kern.h>
#include <errno.h>
#include <string.h>

uintptr_t sys_semihost(uintptr_t op, uintptr_t param);
#define SYS_GET_CMDLINE 0x15

// Splits s in place into at most max words; quotes removed.
static int split_words(char *s, char **argv, int max)
{
    int argc = 0;
    while (*s && argc < max) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        char *w = s, *d = s;
        argv[argc++] = w;
        char q = 0;
        for (; *s && (q || *s != ' '); s++) {
            if (!q && (*s == '\'' || *s == '"'))
                q = *s;
            else if (q && *s == q)
                q = 0;
            else
                *d++ = *s;
        }
        if (*s)
            s++;
        *d = '\0';
    }
    return argc;
}

int kargs_split(char *buf, const char *name, char **argv, int max)
{
    int n = split_words(buf, argv, max);
    for (int i = 0; i < n; ) {
        int j = i;
        while (j < n && strcmp(argv[j], ";;") != 0)
            j++;
        if (j > i && strcmp(argv[i], name) == 0) {
            memmove(argv, argv + i, (size_t)(j - i) * sizeof(*argv));
            argv[j - i] = NULL;
            return j - i;
        }
        i = j + 1;
    }
    return 0;
}

int kargs(const char *name, char *buf, size_t size, char **argv, int max)
{
    uintptr_t blk[2] = { (uintptr_t)buf, size - 1 };   // words of the pointer size (semihosting)
    if (size < 2 || sys_semihost(SYS_GET_CMDLINE, (uintptr_t)blk) != 0 || blk[1] >= size) {
        errno = E2BIG;
        return -1;
    }
    buf[blk[1]] = '\0';
    return kargs_split(buf, name, argv, max - 1);
}
