// SPDX-License-Identifier: MIT
// D's output rewritten with names, a line at a time (symfilter.h): stacksym's loop, shared
// with dtrace -i.
#define _GNU_SOURCE
#include <kevhost/symfilter.h>
#include <kevhost/stacksym.h>
#include <kevhost/tool_elfsym.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

// frame_pc: whether line is a frame as the board prints it (spaces, 0x<hex>, newline).
static int frame_pc(const char *line, uint64_t *pc, int *indent)
{
    const char *p = line;
    while (*p == ' ')
        p++;
    if (p == line || p[0] != '0' || p[1] != 'x')
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p + 2, &end, 16);
    if (end == p + 2 || errno || (*end != '\n' && *end != '\0'))
        return 0;
    *pc = v;
    *indent = (int)(p - line);
    return 1;
}

// fault_pc: the address after "pc " in a console line (the kernel's fault reports); 0 if none.
static int fault_pc(const char *line, uint64_t *pc)
{
    const char *p = strstr(line, "pc 0x");
    if (!p || (p > line && p[-1] != ' ' && p[-1] != ','))
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p + 5, &end, 16);
    if (end == p + 5 || errno)
        return 0;
    *pc = v;
    return 1;
}

// count_line: an aggregation's value line after a stack key (spaces, a number).
static int count_line(const char *line, long long *v)
{
    char *end;
    const char *p = line;
    while (*p == ' ')
        p++;
    if (!*p || *p == '\n')
        return 0;
    errno = 0;
    *v = strtoll(p, &end, 10);
    return !errno && end != p && (*end == '\n' || *end == '\0');
}

void symfilter_line(struct symfilter *f, const char *line, FILE *out)
{
    uint64_t pc;
    int indent;
    const char *merge;
    static char named[4096];
    if (!f->folded && symaddr_line(line, named, sizeof(named), &merge)) {
        if (!merge || symaddr_row(named, merge) != 0) {
            symaddr_flush(out);
            fputs(named, out);
        }
        f->in_stack = 0;
        return;
    }
    symaddr_flush(out); // printa( )'s rows end at the first line not one of them
    if (frame_pc(line, &pc, &indent)) {
        char sym[512], fn[256];
        if (elfsym_frame(pc, f->in_stack, f->with_lines, sym, sizeof(sym), fn, sizeof(fn)) != 0) {
            snprintf(sym, sizeof(sym), "0x%" PRIx64, pc);
            snprintf(fn, sizeof(fn), "0x%" PRIx64, pc);
        }
        if (f->folded) {
            if (f->nframes < SYMFILTER_MAX_FRAMES)
                snprintf(f->frames[f->nframes++], sizeof(f->frames[0]), "%s",
                         f->with_lines ? sym : fn);
        } else {
            fprintf(out, "%*s%s\n", indent, "", sym);
        }
        f->in_stack = 1;
        return;
    }
    long long v;
    if (f->folded) {
        if (f->in_stack && count_line(line, &v)) {
            for (unsigned i = f->nframes; i-- > 0;)
                fprintf(out, "%s%s", f->frames[i], i ? ";" : "");
            fprintf(out, " %lld\n", v);
        }
        f->nframes = 0;
    } else if (f->console && fault_pc(line, &pc)) {
        char sym[512];
        int found = elfsym_frame(pc, 0, 1, sym, sizeof(sym), NULL, 0) == 0;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\n')
            len--;
        if (found) // "... pc 0xc009a ... (stackchain`main+0x4 [stackchain.c:16])"
            fprintf(out, "%.*s (%s)\n", (int)len, line, sym);
        else
            fprintf(out, "%.*s\n", (int)len, line);
    } else {
        fputs(line, out);
    }
    f->in_stack = 0;
}

void symfilter_end(struct symfilter *f, FILE *out)
{
    (void)f;
    symaddr_flush(out);
}
