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
#include <stdbool.h>
#include <string.h>

uintptr_t sys_semihost(uintptr_t op, uintptr_t param);
#define SYS_GET_CMDLINE 0x15

// The next word of *s, split in place (quotes removed), *s moved past it; NULL at the end.
static char *next_word(char **s)
{
    char *p = *s;
    while (*p == ' ')
        p++;
    if (!*p)
        return NULL;
    char *w = p, *d = p;
    char q = 0;
    for (; *p && (q || *p != ' '); p++) {
        if (!q && (*p == '\'' || *p == '"'))
            q = *p;
        else if (q && *p == q)
            q = 0;
        else
            *d++ = *p;
    }
    if (*p)
        p++;
    *d = '\0';
    *s = p;
    return w;
}

// The part that names `name`: its words in argv (at most max, then NULL), their count; 0 when
// no part names it; -1 when its part has more words than argv holds (never a silently shorter
// line). Other parts may have any number of words.
int kargs_split(char *buf, const char *name, char **argv, int max)
{
    char *s = buf, *w;
    do {
        int n = 0;
        bool mine = false;
        while ((w = next_word(&s)) && strcmp(w, ";;") != 0) {
            if (n == 0)
                mine = strcmp(w, name) == 0;
            if (n < max)
                argv[n] = w;
            n++;
        }
        if (mine) {
            if (n > max)
                return -1;
            argv[n] = NULL;
            return n;
        }
    } while (w);
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
    int n = kargs_split(buf, name, argv, max - 1);
    if (n < 0)
        errno = E2BIG;
    return n;
}
