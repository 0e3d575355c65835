// SPDX-License-Identifier: MIT
// $target bound when the program starts (d/dtarget.h): the program text is rewritten before
// it is compiled, in one place for the host's dcompile and the board's dtrace.
#include <d/dtarget.h>
#include "dutil.h"

#define TARGET_VAR "__dtrace_target"

static int put(char *out, size_t cap, size_t *n, const char *s, size_t len)
{
    if (*n + len >= cap)
        return -1;
    for (size_t k = 0; k < len; k++)
        out[(*n)++] = s[k];
    return 0;
}

static int puts_(char *out, size_t cap, size_t *n, const char *s)
{
    return put(out, cap, n, s, d_strlen(s));
}

static int name_ok(const char *s)
{
    size_t k = 0;
    for (; s[k]; k++)
        if (!((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z') ||
              (s[k] >= '0' && s[k] <= '9') || s[k] == '_' || s[k] == '-'))
            return 0;
    return k >= 1 && k <= 15;
}

static int is_target(const char *s)
{
    static const char word[] = "$target";
    for (size_t k = 0; k + 1 < sizeof(word); k++)
        if (s[k] != word[k])
            return 0;
    return 1;
}

size_t d_target_text(const char *src, size_t len, const char *name, char *out, size_t cap)
{
    size_t n = 0, at = 0;
    unsigned line = 1;
    if (!name_ok(name))
        return 0;
    if (len >= 2 && src[0] == '#' && src[1] == '!') { /* the interpreter line stays first */
        while (at < len && src[at] != '\n')
            at++;
        line = 2;
        if (at < len)
            at++;
        if (put(out, cap, &n, src, at))
            return 0;
    }
    char num[24];
    d_utoa(num, line);
    if ((at && src[at - 1] != '\n' && puts_(out, cap, &n, "\n")) ||
        puts_(out, cap, &n, "int " TARGET_VAR ";\nkercall:::entry\n/" TARGET_VAR " == 0 && "
              "execname == \"") || puts_(out, cap, &n, name) ||
        puts_(out, cap, &n, "\"/\n{\n\t" TARGET_VAR " = pid;\n}\n# ") ||
        puts_(out, cap, &n, num) || puts_(out, cap, &n, "\n"))
        return 0;
    while (at < len) {
        if (len - at >= 7 && src[at] == '$' && is_target(src + at) &&
            !(at + 7 < len && ((src[at + 7] >= 'a' && src[at + 7] <= 'z') ||
                               (src[at + 7] >= 'A' && src[at + 7] <= 'Z') ||
                               (src[at + 7] >= '0' && src[at + 7] <= '9') ||
                               src[at + 7] == '_'))) {
            if (puts_(out, cap, &n, TARGET_VAR))
                return 0;
            at += 7;
            continue;
        }
        if (put(out, cap, &n, src + at, 1))
            return 0;
        at++;
    }
    out[n] = '\0';
    return n;
}
