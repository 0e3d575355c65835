// SPDX-License-Identifier: MIT
// The D compiler: D source text in, a DIF object (d/dif.h) out. Portable freestanding C: all
// memory comes from the caller's arena; errors come back as text, never printed.
#ifndef D_DCC_H
#define D_DCC_H

#include <stddef.h>
#include <stdint.h>

#define DCC_MAXOPTS 32

struct dcc_opt {
    char name[24];
    char value[40];
    int line;            /* of the #pragma, for D_PRAGMA_OPTSET */
};

/* Macro variables: the compiling process's own ids, as dtrace(1) gives them ($pid is the
 * dtrace process's; no groups, sessions or users here: the front end says what it has). */
#define DCC_MAXARGS 64   /* script arguments a front end passes, $0 included */
struct dcc_macros {
    int64_t pid, ppid, pgid, sid, uid, gid, euid, egid;
    int64_t target;      /* $target: the process of -c / -p; 0 when there is none */
    int noids;           /* 1: $pid ... $target are not defined (a board's compile: the ids
                          * above would be the host's), only the arguments below */
    int pid_at_run;      /* 1 (with noids): $pid is the consumer's pid, read when the program
                          * runs (a board's compile, whose consumer is the board's dtrace); it
                          * serves expressions and predicates, not constant contexts */
    /* Script arguments, as dtrace(1M) passes its operands: argv[0] is $0 (the script's name
     * with -s, else the program's), argv[1..] $1, $2... (the text: an integer, an identifier
     * or a string, as libdtrace's lexer reads it; $$N is always the string). */
    const char *const *argv;
    unsigned argc;       /* 0: none, not even $0 */
    int defaultargs;     /* -x defaultargs: a missing $N is 0, $$N "" */
    int argref;          /* -x argref: an argument the script never names is no error */
};

struct dcc_in {
    const char *src;     /* script text (need not be NUL-terminated) */
    size_t len;
    unsigned strsize;    /* string size (0: 256); #pragma D option strsize overrides */
    int errtags;         /* prefix messages with [D_TAG] */
    const struct dcc_macros *macros; /* $pid, $ppid..., $0, $1...; NULL: none is defined */
    /* Bytes of stack the compiler may use below dcc_compile's own frame; 0: no limit but the
     * nesting bounds. A script whose nesting would go deeper is refused (D_SYNTAX, "nested too
     * deeply for the compiler's stack") instead of running the stack into the caller's data: a
     * board's dtrace gives the room its linker reserved (its STACK, user/module.mk) less what
     * its own frames above the compiler take. The stack is taken to grow down. */
    size_t stack_room;
};

struct dcc_out {
    void *obj;           /* 8-byte aligned, inside the arena */
    size_t objlen;
    unsigned nprobes;    /* probes matched */
    unsigned nopts;      /* #pragma D option settings, in source order */
    struct dcc_opt opts[DCC_MAXOPTS];
    /* pid functions a glob matched but could not place (a description naming one function
     * that cannot be placed is an error instead): how many, the first one's name and why */
    unsigned pid_skipped;
    char pid_skip_func[48];
    const char *pid_skip_why;
    int line;            /* on error: source line */
    char tag[24];        /* on error: D_* tag */
    char err[256];       /* on error: "[TAG] line N: message" or "line N: message" */
};

/* dcc_symbol: how a front end resolves a kernel symbol in backquotes (`name, module`name):
 * its address, 0; -1 when it has no such symbol. Set by a host front end that read the kernel
 * image's ELF file (dtrace, dcompile --kernel FILE); NULL (the board's dtrace): no symbols. */
typedef int (*dcc_symbol_fn)(const char *module, const char *name, uint64_t *addr);
extern dcc_symbol_fn dcc_symbol;
/* dcc_kvar: the same front end's kernel variables (`name as a value): a data object's address
 * and size in bytes, 0; -1 when the image has no such object. NULL: none. */
typedef int (*dcc_kvar_fn)(const char *module, const char *name, uint64_t *addr,
                           uint64_t *size);
extern dcc_kvar_fn dcc_kvar;

/* dcc_compile: returns 0 with out->obj set, or -1 with out->err set. The arena must outlive the
 * object; about 1 MiB is plenty for scripts of a few hundred lines. */
int dcc_compile(const struct dcc_in *in, void *arena, size_t arena_len, struct dcc_out *out);

#endif
