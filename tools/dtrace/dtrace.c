// SPDX-License-Identifier: MIT
// dtrace: the host front end of the D engine. Compiles a script (-s file, -n text), sets
// options (-x, -b, -q, #pragma D option), and with no target runs it natively: BEGIN, then
// tick-N / profile-N in virtual time (as fast as the host allows, in timestamp order), the
// consumer reading buffers every switchrate of virtual time, until exit(), a filled buffer
// (bufpolicy=fill), SIGINT, or, when the script has no timer probes, right after BEGIN; then
// END, the final drain, the final newline and the aggregations. Exit status: 1 on compile or
// load failure, 2 on usage errors, else the exit() value.
#include <d/dcc.h>
#include <d/dcons.h>
#include <d/dprobes.h>
#include <d/dtarget.h>
#include <d/dvm.h>
#include <d/dobj_file.h>
#include <d/optval.h>
#include "kevreplay.h"
#include "kevincident.h"
#include <kevhost/row_probes.h>
#include <kevhost/kev_input.h>
#include <kevhost/kev_live.h>
#include "kevtarget.h"
#include "kevprogs.h"
#include "kevkvar.h"
#include "cmdproc.h"
#include <kevhost/tool_file.h>
#include <kevhost/tool_fbt.h>
#include <kevhost/tool_usdt.h>
#include <kevhost/tool_elfsym.h>
#include <kevhost/tool_map.h>
#include <kevhost/tool_syms.h>
#include <kevhost/symfilter.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ENGINE_MEM (64u << 20)

struct options {
    uint64_t bufsize, aggsize, dynvarsize, switchrate_ns, strsize, nspec, specsize;
    uint64_t aggrate_ns, statusrate_ns; /* 0: unset (1hz, as dtrace(1M)'s defaults) */
    unsigned bufpolicy, bufresize_manual, quiet, errtags, aggsortkey, aggsortrev, ncpus;
    unsigned aggsortkeypos, aggsortpos, droptags, noerror, destructive, aggzoom, agghist, aggpack;
    unsigned encoding; /* DCONS_ENC_*: how distributions' bars are drawn */
    unsigned flowindent, zdefs; /* -F / -x flowindent, -Z / -x zdefs */
    unsigned defaultargs, argref; /* -x defaultargs, -x argref: script arguments' checks */
    const char *script; /* for errors in #pragma D option */
    int pragma_line;    /* > 0: the option comes from a #pragma on this line */
    unsigned cpu_only;  /* -x cpu=N: N + 1 (only CPU N traces); 0: every CPU */
    int ncpus_set;      /* -x ncpus given (else -i takes the capture's CPU count) */
    unsigned follow;    /* -x follow: -i reads a file as it grows (the live reader) */
};

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig) { (void)sig; interrupted = 1; }

/* -T NAME: *text (*len bytes) rewritten so that $target is the first process named NAME from
 * its first kernel call (d/dtarget.h), as the board's dtrace -T compiles it, so that a capture
 * of a board's run replays the same binding (before that call $target reads 0). 0, or -1 said
 * (no capture, with -c or -p, not a program name). */
static int bind_text(char **text, size_t *len, const char *name, int ok)
{
    if (!ok) {
        fprintf(stderr, "dtrace: -T names a capture's process: give -i, and no -c or -p\n");
        return -1;
    }
    if (!*text || !strstr(*text, "$target"))
        return 0;
    size_t cap = *len * 3 + 512, n;
    char *bound = malloc(cap);
    n = bound ? d_target_text(*text, *len, name, bound, cap) : 0;
    if (!n) {
        fprintf(stderr, "dtrace: -T %s: no program name (1 to 15 letters, digits, _ or -)\n",
                name);
        free(bound);
        return -1;
    }
    free(*text);
    *text = bound;
    *len = n;
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "Usage: dtrace [-CeFlqSvwZ] [-b bufsz] [-c cmd] [-D name[=def]] [-I path] "
               "[-P provider] [-m module] [-f function] [--kernel image.elf] "
               "[-i trace.kev] [-o output] [-p pid] [-U name] [-x opt[=val]] [-s script] "
               "[-n probe-description-and-clause] [arg ...]\n"
               "\targ: the script's arguments, $1 $2 ... ($$1: as a string; $0 the script)\n"
               "\t-A  anonymous tracing: not on the host (says why; see docs/dtrace-target.md)\n"
               "\t-b  set trace buffer size\n"
               "\t-c  run the specified command and exit upon its completion; $target is its "
               "pid (with -i: the capture's process of that name)\n"
               "\t-C  run cpp(1) preprocessor on script files\n"
               "\t-D  define symbol when invoking preprocessor\n"
               "\t-e  exit after compiling request\n"
               "\t-F  coalesce trace output by function (flow indent entry/return)\n"
               "\t-i  run the program over a captured trace (.kev) instead of live; over a\n"
               "\t    live trace as it arrives: the tracelogger's stream (a pipe, a serial\n"
               "\t    device, HOST:PORT, a recorded stream file, - for standard input), or\n"
               "\t    with -x follow a .kev or stream file read as it grows, until its end;\n"
               "\t    with no program, an incident's .kev: the board's D program's records and\n"
               "\t    aggregations when its trigger fired (docs/incidents.md)\n"
               "\t-I  add include directory to preprocessor search path\n"
               "\t-l  list probes matching specified criteria (all probes without -n/-s)\n"
               "\t-n  enable probe(s) with the given clause\n"
               "\t-o  set output file\n"
               "\t-p  grab the specified process-ID; $target is it; exit when it exits (with "
               "-i: a process of the capture)\n"
               "\t-q  set quiet mode (only output explicitly traced data)\n"
               "\t-s  enable or list probes for the specified D program\n"
               "\t-S  print the DIF of each predicate and action (stderr)\n"
               "\t-T  with -i: $target is the first process named T, bound at its first "
               "kernel call as the board's dtrace -T binds it (d/dtarget.h)\n"
               "\t-U  undefine symbol when invoking preprocessor\n"
               "\t-v  set verbose mode: report the probes each program enabled\n"
               "\t-w  permit destructive actions\n"
               "\t-x  enable or modify compiler and tracing options\n"
               "\t-Z  permit probe descriptions that match zero probes\n"
               "\t-P  enable or list probes of the specified provider (-m module, -f function)\n"
               "\t--kernel FILE  the board image's ELF file: D's `symbol is its address there,\n"
               "\t               its fbt table names the fbt probes (docs/fbt.md),\n"
               "\t               and with -i the capture's kernel frames are named from it\n"
               "\t--elf FILE  a program's ELF file: its USDT probes (docs/usdt.md), the\n"
               "\t               functions pid probes name (docs/pid.md), and with -i its\n"
               "\t               frames' names\n"
               "\t--help  print this message\n"
               "With -i, code addresses in the output (stack( ), ustack( ), func( ), ufunc( ),\n"
               "%%a, ...) are named as stacksym names them, from the ELF files the capture ran,\n"
               "found by build id:\n");
    syms_usage(f);
}

/* parse_size: as libdtrace's dt_opt_size (d/optval.h); returns 0 if malformed. */
static int parse_size(const char *s, uint64_t *out)
{
    return d_optval_size(s, out) == 0;
}

/* parse_runtime: a run-time option's value as dt_opt_runtime reads it: none (set), "" (unset),
 * yes/no, enable(d)/disable(d), true/false, on/off, set/unset in any case, or a number. */
static int parse_runtime(const char *s, uint64_t *out)
{
    static const char *const pairs[][2] = { { "yes", "no" }, { "enable", "disable" },
        { "enabled", "disabled" }, { "true", "false" }, { "on", "off" }, { "set", "unset" } };
    if (!s) {
        *out = 1;
        return 1;
    }
    if (!*s) {
        *out = 0;
        return 1;
    }
    for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
        if (!strcasecmp(s, pairs[k][0])) { *out = 1; return 1; }
        if (!strcasecmp(s, pairs[k][1])) { *out = 0; return 1; }
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (end == s || *end || errno || *s == '-')
        return 0;
    *out = v;
    return 1;
}

/* parse_rate: as libdtrace's dt_opt_rate (d/optval.h): "10hz", "10ms", "5" (ns); returns
 * the period in ns, 0 if malformed. */
static uint64_t parse_rate(const char *s)
{
    uint64_t ns;
    return d_optval_rate(s, &ns) == 0 ? ns : 0;
}

/* option_flag: whether name is a flag option (no value), set in *o if this engine uses it */
static int option_flag(struct options *o, const char *name)
{
    static const char *const flags[] = { "errtags", "droptags", "zdefs", "knodefs", "unodefs",
        "kdefs", "udefs", "nolibs", "argref", "defaultargs", "empty", "pspec", "verbose",
        "lazyload", "cpp", "strip", "noerror", "follow" };
    for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
        if (!strcmp(name, flags[k])) {
            if (!strcmp(name, "errtags")) o->errtags = 1;
            if (!strcmp(name, "droptags")) o->droptags = 1;
            if (!strcmp(name, "noerror")) o->noerror = 1;
            if (!strcmp(name, "zdefs")) o->zdefs = 1;
            if (!strcmp(name, "defaultargs")) o->defaultargs = 1;
            if (!strcmp(name, "argref")) o->argref = 1;
            if (!strcmp(name, "follow")) o->follow = 1;
            return 1;
        }
    return 0;
}

/* option_runtime: a runtime option (one a program may change as it runs, libdtrace's
 * DTRACEOPT runtime set): -1 when name is none, 0 when set, 1 when its value is bad */
static int option_runtime(struct options *o, const char *name, const char *val)
{
    static const char *const runtime[] = { "quiet", "aggsortkey", "aggsortrev", "flowindent",
        "rawbytes", "stackindent", "destructive", "grabanon", "temporal", "agghist", "aggpack",
        "aggzoom", "aggsortpos", "stackframes", "ustackframes", "jstackframes",
        "jstackstrsize", "aggpercpu" };
    uint64_t v;
    for (size_t k = 0; k < sizeof(runtime) / sizeof(runtime[0]); k++)
        if (!strcmp(name, runtime[k])) {
            if (!parse_runtime(val, &v))
                return 1;
            if (!strcmp(name, "quiet")) o->quiet = v != 0;
            if (!strcmp(name, "aggsortkey")) o->aggsortkey = v != 0;
            if (!strcmp(name, "aggsortrev")) o->aggsortrev = v != 0;
            if (!strcmp(name, "destructive")) o->destructive = v != 0;
            if (!strcmp(name, "aggzoom")) o->aggzoom = v != 0;
            if (!strcmp(name, "agghist")) o->agghist = v != 0;
            if (!strcmp(name, "aggpack")) o->aggpack = v != 0;
            if (!strcmp(name, "flowindent")) o->flowindent = v != 0;
            if (!strcmp(name, "aggsortpos")) /* past the aggregations: the first */
                o->aggsortpos = v > 0xffff ? 0xffff : (unsigned)v;
            return 0; /* the others change nothing this engine does */
        }
    return -1;
}

/* option_size: a size option (bufsize, aggsize, dynvarsize, specsize, strsize: "4m"): -1 when
 * name is none, 0 when set, 1 when its value is bad */
static int option_size(struct options *o, const char *name, const char *val)
{
    uint64_t v;
    if (strcmp(name, "bufsize") && strcmp(name, "aggsize") && strcmp(name, "dynvarsize") &&
        strcmp(name, "specsize") && strcmp(name, "strsize"))
        return -1;
    if (!val || !parse_size(val, &v))
        return 1;
    if (!strcmp(name, "bufsize")) o->bufsize = v;
    else if (!strcmp(name, "aggsize")) o->aggsize = v;
    else if (!strcmp(name, "dynvarsize")) o->dynvarsize = v;
    else if (!strcmp(name, "specsize")) o->specsize = v;
    else if (!strcmp(name, "strsize")) {
        if (v < 2 || v > DIF_STRSIZE_MAX)
            return 1;
        o->strsize = v;
    }
    return 0;
}

/* option_choice: an option whose value is one of a few words (bufpolicy, bufresize,
 * encoding): -1 when name is none, 0 when set, 1 when its value is none of them */
static int option_choice(struct options *o, const char *name, const char *val)
{
    if (!strcmp(name, "encoding")) { /* as dt_opt_encoding: ascii or utf8, nothing else */
        if (!val || (strcmp(val, "ascii") && strcmp(val, "utf8")))
            return 1;
        o->encoding = strcmp(val, "utf8") ? DCONS_ENC_ASCII : DCONS_ENC_UTF8;
        return 0;
    }
    if (!strcmp(name, "bufpolicy")) {
        if (val && !strcmp(val, "switch")) o->bufpolicy = DVM_BUF_SWITCH;
        else if (val && !strcmp(val, "fill")) o->bufpolicy = DVM_BUF_FILL;
        else if (val && !strcmp(val, "ring")) o->bufpolicy = DVM_BUF_RING;
        else return 1;
        return 0;
    }
    if (!strcmp(name, "bufresize")) {
        if (val && !strcmp(val, "auto")) o->bufresize_manual = 0;
        else if (val && !strcmp(val, "manual")) o->bufresize_manual = 1;
        else return 1;
        return 0;
    }
    return -1;
}

/* option_rate: a rate option (switchrate, aggrate, statusrate, cleanrate: parse_rate): -1 when
 * name is none, 0 when set (cleanrate changes nothing this engine does), 1 when malformed */
static int option_rate(struct options *o, const char *name, const char *val)
{
    uint64_t v;
    if (strcmp(name, "switchrate") && strcmp(name, "aggrate") && strcmp(name, "statusrate") &&
        strcmp(name, "cleanrate"))
        return -1;
    if (!val || !(v = parse_rate(val)))
        return 1;
    if (!strcmp(name, "switchrate"))
        o->switchrate_ns = v;
    if (!strcmp(name, "aggrate"))
        o->aggrate_ns = v;
    if (!strcmp(name, "statusrate"))
        o->statusrate_ns = v;
    return 0;
}

/* option_apply: applies name[=value]; returns NULL, or why it cannot. */
static const char *option_apply(struct options *o, const char *name, const char *val)
{
    uint64_t v;
    const char *why = "Invalid value for specified option";
    if (option_flag(o, name))
        return NULL;
    int rt = option_runtime(o, name, val);
    if (rt < 0)
        rt = option_size(o, name, val);
    if (rt < 0)
        rt = option_choice(o, name, val);
    if (rt < 0)
        rt = option_rate(o, name, val);
    if (rt >= 0)
        return rt ? why : NULL;
    if (!strcmp(name, "version")) { /* the D version the program is written for: 1.0 ... 1.13 */
        unsigned maj, min;
        char c;
        if (!val || sscanf(val, "%u.%u%c", &maj, &min, &c) != 2 || maj != 1 || min > 13)
            goto bad;
        return NULL;
    }
    if (!strcmp(name, "nspec")) {
        if (!val || !parse_runtime(val, &v) || v > DVM_MAXSPEC)
            goto bad;
        o->nspec = v;
        return NULL;
    }
    if (!strcmp(name, "aggsortkeypos")) {
        if (!val || !parse_size(val, &v) || v > 15)
            goto bad;
        o->aggsortkeypos = (unsigned)v;
        return NULL;
    }
    if (!strcmp(name, "ncpus")) { /* host runs only: simulated CPUs for profile-N */
        if (!val || !parse_size(val, &v) || v < 1 || v > DVM_MAXCPU)
            goto bad;
        o->ncpus = (unsigned)v;
        o->ncpus_set = 1;
        return NULL;
    }
    if (!strcmp(name, "prio")) { /* the board's consumer's priority (d/dobj_file.h): no host
                                  * consumer runs below a program, so only checked here */
        if (!val || !parse_runtime(val, &v) || v < 1 || v > DOBJ_PRIO_MAX)
            goto bad;
        return NULL;
    }
    if (!strcmp(name, "cpu")) { /* the CPU to trace; checked against the CPUs at load */
        if (!val || !parse_runtime(val, &v) || v >= DVM_MAXCPU)
            goto bad;
        o->cpu_only = (unsigned)v + 1u;
        return NULL;
    }
    why = "Invalid option name";
bad:
    return why;
}

/* set_option: applies name[=value]; returns 0, or -1 after printing the error. */
static int set_option(struct options *o, const char *name, const char *val)
{
    const char *why = option_apply(o, name, val);
    if (!why)
        return 0;
    if (o->pragma_line > 0) /* a compile error, as dt_pragma.c reports it */
        fprintf(stderr, "dtrace: failed to compile script %s: %sline %d: failed to set option "
                "'%s' to '%s': %s\n", o->script ? o->script : "", o->errtags ?
                "[D_PRAGMA_OPTSET] " : "", o->pragma_line, name, val ? val : "", why);
    else
        fprintf(stderr, "dtrace: failed to set option -x %s%s%s: %s\n", name, val ? "=" : "",
                val ? val : "", why);
    return -1;
}

/* ---- the consumer's actions: setopt( ), freopen( ), system( ) ---------------------------- */

static struct options *run_opts; /* the options of the running program */

/* host_setopt: setopt( ) while tracing: run-time options take effect for the records that
 * follow; those that size buffers are fixed once tracing started (libdtrace: EDT_ACTIVE). */
static int host_setopt(struct dcons *c, const char *name, const char *val, const char **why)
{
    static const char *const fixed[] = { "bufsize", "aggsize", "dynvarsize", "specsize",
        "strsize", "nspec", "bufpolicy", "bufresize", "ncpus" };
    struct options tmp = *run_opts;
    tmp.pragma_line = 0;
    if ((*why = option_apply(&tmp, name, val)) != NULL)
        return -1;
    for (size_t k = 0; k < sizeof(fixed) / sizeof(fixed[0]); k++)
        if (!strcmp(name, fixed[k])) {
            *why = "Operation illegal when tracing is active";
            return -1;
        }
    *run_opts = tmp;
    c->quiet = (int)tmp.quiet;
    c->aggsortkey = (int)tmp.aggsortkey;
    c->aggsortrev = (int)tmp.aggsortrev;
    c->aggsortkeypos = tmp.aggsortkeypos;
    c->aggsortpos = tmp.aggsortpos;
    c->aggzoom = (int)tmp.aggzoom;
    c->agghist = (int)tmp.agghist;
    c->aggpack = (int)tmp.aggpack;
    c->encoding = (int)tmp.encoding;
    return 0;
}

/* term_ascii: TERM names a terminal known not to draw UTF-8 (sun, sun-color, dumb): aggpack's
 * packed lines then use ascii when no encoding is set, as libdtrace's dt_print_packed decides;
 * any other TERM, or none, draws block elements. */
static int term_ascii(void)
{
    const char *t = getenv("TERM");
    return t && (!strcmp(t, "sun") || !strcmp(t, "sun-color") || !strcmp(t, "dumb"));
}

static void file_write(void *arg, const char *s, size_t n) { fwrite(s, 1, n, (FILE *)arg); }

/* -i's output named (stacksym's rewriting, tools/common/symfilter.c): the consumer's text is
 * taken a line at a time; arg is the FILE, as file_write's, so that freopen( ) works alike. An
 * address no ELF file names (none found, or --no-symbols) prints as libdtrace prints one it
 * cannot name, "0x192be", never as the board's token. */
static struct symfilter sym_filter;
static char *sym_line;
static size_t sym_len, sym_cap;

static void sym_write(void *arg, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (sym_len + 2 > sym_cap) {
            sym_cap = sym_cap ? 2 * sym_cap : 4096;
            sym_line = realloc(sym_line, sym_cap);
            if (!sym_line) {
                fprintf(stderr, "dtrace: out of memory\n");
                exit(1);
            }
        }
        sym_line[sym_len++] = s[i];
        if (s[i] == '\n') {
            sym_line[sym_len] = 0;
            symfilter_line(&sym_filter, sym_line, (FILE *)arg);
            sym_len = 0;
        }
    }
}

/* sym_flush: what sym_write holds (a line without its newline yet, printa( ) rows). */
static void sym_flush(FILE *f)
{
    if (sym_len)
        fwrite(sym_line, 1, sym_len, f);
    sym_len = 0;
    symfilter_end(&sym_filter, f);
}

static int sym_on; /* the consumer writes through sym_write */

static FILE *run_out; /* where the consumer writes: stdout, -o's file or freopen( )'s */
/* flush_out: what the program printed, out at once (a live source's replay) */
static void flush_out(void)
{
    fflush(run_out);
}

static int host_freopen(struct dcons *c, const char *path, const char **why)
{
    FILE *f = stdout;
    if (sym_on)
        sym_flush(run_out);
    fflush(run_out);
    if (path[0] && !(f = fopen(path, "w"))) {
        *why = strerror(errno);
        return -1;
    }
    if (run_out != stdout)
        fclose(run_out);
    run_out = f;
    c->out.arg = f;
    return 0;
}

/* host_system: the command's output goes after what the program printed before it, the
 * symbolizer's held lines too (dtrace -i names frames through it: its lines wait there) */
static int host_system(struct dcons *c, const char *cmd, const char **why)
{
    (void)c;
    if (sym_on)
        sym_flush(run_out);
    fflush(run_out);
    fflush(stderr);
    if (system(cmd) == -1) {
        *why = strerror(errno);
        return -1;
    }
    return 0;
}

/* host_raise: raise( ) sends the signal to the process that fired the probe, as DTrace's
 * does; over a capture that process is not running here, which is said instead. */
static int run_capture;
static int host_raise(struct dcons *c, int64_t pid, int64_t sig, const char **why)
{
    (void)c;
    if (run_capture) {
        *why = "the process is one of a capture's, not running here (nothing sent)";
        return -1;
    }
    if (sig <= 0 || sig >= 65 || pid <= 0 || kill((pid_t)pid, (int)sig) != 0) {
        *why = sig <= 0 || sig >= 65 || pid <= 0 ? "no such signal or process" : strerror(errno);
        return -1;
    }
    return 0;
}

static int set_option_str(struct options *o, const char *arg)
{
    char buf[128];
    snprintf(buf, sizeof(buf), "%s", arg);
    char *eq = strchr(buf, '=');
    if (eq)
        *eq++ = 0;
    return set_option(o, buf, eq);
}

/* run_cpp: the script through cpp(1), keeping line markers for error lines. A line
 * "#!interpreter" is blanked first (cpp would refuse it; libdtrace discards it anywhere). */
static const char *cpp_defs[64]; /* -D, -U, -I as cpp(1) arguments, in command-line order */
static int ncpp_defs;

static char *run_cpp(const char *path, size_t *len)
{
    size_t srclen;
    char *src = (char *)tool_read_file(path, &srclen);
    if (!src)
        return NULL;
    for (size_t k = 0; k < srclen; k++) { /* each line "#!...", after blanks */
        size_t j = k;
        while (j < srclen && (src[j] == ' ' || src[j] == '\t' || src[j] == '\f' || src[j] == '\v'))
            j++;
        if (j + 1 < srclen && src[j] == '#' && src[j + 1] == '!')
            for (; j < srclen && src[j] != '\n'; j++)
                src[j] = ' ';
        while (k < srclen && src[k] != '\n')
            k++;
    }
    int fd[2], in[2];
    if (pipe(fd) != 0 || pipe(in) != 0)
        return NULL;
    pid_t feeder = fork();
    if (feeder == 0) {
        close(in[0]);
        close(fd[0]);
        close(fd[1]);
        for (size_t off = 0; off < srclen;) {
            ssize_t k = write(in[1], src + off, srclen - off);
            if (k <= 0)
                _exit(1);
            off += (size_t)k;
        }
        _exit(0);
    }
    close(in[1]);
    free(src);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(in[0], 0);
        close(fd[0]);
        close(fd[1]);
        close(in[0]);
        const char *av[72] = { "cpp", "-w", "-undef", "-D__SUNW_D=1", "-D__sun" };
        int ac = 5;
        for (int k = 0; k < ncpp_defs; k++)
            av[ac++] = cpp_defs[k];
        av[ac++] = "-";
        av[ac] = NULL;
        execvp("cpp", (char *const *)av);
        _exit(127);
    }
    close(in[0]);
    close(fd[1]);
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n == cap)
            buf = realloc(buf, cap *= 2);
        ssize_t k = read(fd[0], buf + n, cap - n);
        if (k <= 0)
            break;
        n += (size_t)k;
    }
    close(fd[0]);
    int st;
    waitpid(feeder, &st, 0);
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}



static uint64_t now_ns(clockid_t clk)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* consume: reads every CPU's principal buffer (final: whatever the policy) and reports drops. */
static void consume(struct dvm_state *st, struct dcons *cons, int final)
{
    for (unsigned cpu = 0; cpu < st->opts.ncpu; cpu++)
        dvm_buf_read(st, cpu, final, dcons_record, cons);
    dcons_drops(cons);
}

/* disasm: dtrace -S, the DIF of every predicate and action, one instruction a line. */
static void disasm_prog(const struct dif_obj *o, const struct dif_prog *p, const char *what,
                        unsigned n)
{
    if (!p->dp_len)
        return;
    fprintf(stderr, "%s %u:\n", what, n);
    for (uint32_t pc = 0; pc < p->dp_len; pc++) {
        uint32_t i = o->insns[p->dp_start + pc];
        unsigned op = DIF_OP(i);
        fprintf(stderr, "  %04x %08x  %-8s", pc * 4, i, dif_opname(op));
        if (op >= DIF_BA && op <= DIF_BLEU)
            fprintf(stderr, "%04x", DIF_TARGET(i) * 4);
        else if (op == DIF_SETX)
            fprintf(stderr, "%%r%u, %lld", DIF_RD(i), (long long)o->ints[DIF_IDX(i)]);
        else if (op == DIF_SETS)
            fprintf(stderr, "%%r%u, \"%s\"", DIF_RD(i), o->strs + DIF_IDX(i));
        else if (op >= DIF_LDGV && op <= DIF_STGA)
            fprintf(stderr, "%%r%u, %s", DIF_RD(i), dif_str(o, o->vars[DIF_IDX(i)].dv_name));
        else if (op == DIF_BUILTIN || op == DIF_CALL)
            fprintf(stderr, "%%r%u, #%u", DIF_RD(i), DIF_IDX(i));
        else if (op == DIF_PUSHT || op == DIF_PUSHR)
            fprintf(stderr, "%%r%u, %s", DIF_R1(i), DIF_R2(i) ? "string" : "int");
        else if (op == DIF_RET)
            fprintf(stderr, "%%r%u", DIF_RD(i));
        else if (op == DIF_CMP || op == DIF_SCMP)
            fprintf(stderr, "%%r%u, %%r%u", DIF_R1(i), DIF_R2(i));
        else if (op == DIF_TST)
            fprintf(stderr, "%%r%u", DIF_R1(i));
        else if (op == DIF_NOT || op == DIF_MOV || (op >= DIF_LDSB && op <= DIF_LDX))
            fprintf(stderr, "%%r%u, %%r%u", DIF_R1(i), DIF_RD(i));
        else if (op != DIF_NOP && op != DIF_FLUSHT)
            fprintf(stderr, "%%r%u, %%r%u, %%r%u", DIF_R1(i), DIF_R2(i), DIF_RD(i));
        fputc('\n', stderr);
    }
}

static void disasm(const struct dif_obj *o)
{
    for (uint32_t k = 0; k < o->hdr->dh_nclauses; k++) {
        const struct dif_clause *c = &o->clauses[k];
        disasm_prog(o, &c->dc_pred, "predicate of clause", k);
        for (uint32_t a = 0; a < c->dc_nacts; a++)
            disasm_prog(o, &o->acts[c->dc_act + a].da_prog, "action", a + 1);
    }
}


/* kernel_symbols: each --kernel FILE (the kernel image's ELF file) read for D's `name, before
 * getopt; the option stays in argv for -i's frame names (tool_syms.h). 0, or -1 after saying
 * why. */
static int symbol_of(const char *module, const char *name, uint64_t *addr)
{
    return elfsym_address(module, name, addr);
}

static int kernel_given;    /* --kernel FILE was given */

static int kernel_symbols(int argc, char **argv)
{
    for (int k = 1; k + 1 < argc; k++) {
        if (!strcmp(argv[k], "--"))
            break;
        if (!strcmp(argv[k], "--kernel")) {
            if (elfsym_add("dtrace", argv[++k], 1) != 0)
                return -1;
            dcc_symbol = symbol_of;
            dcc_kvar = elfsym_object;
            kernel_given = 1;
        }
    }
    return 0;
}

/* capture_kernel: over a capture without --kernel, the kernel image the capture ran (found
 * by its build id, as its frames are named): its symbols for D's `name and its fbt table, as
 * --kernel gives them, so that a script runs over the capture as it ran on the board. Its
 * variables are read from what the capture holds (kevkvar.h). */
static void capture_kernel(void)
{
    const char *path = kernel_given ? NULL : syms_kernel_file();
    if (!kernel_given && (!path || tool_fbt_load("dtrace", path, 0) != 0))
        return;
    dcc_symbol = symbol_of;
    dcc_kvar = kev_kvar_object;
}

/* The command line, beside the options: what to run, over what, and what to do with it. */
struct cli {
    const char *script, *outpath, *capture;
    char *text;                     /* the -n, -P, -m and -f clauses, or the script's text */
    size_t textlen;
    int cpp, list, compile_only, show_dif, verbose;
    const char *target_cmd;         /* -c */
    const char *bind_name;          /* -T */
    int64_t target;                 /* -p, or -c's process: $target */
    int grab;                       /* -p */
};

/* take_syms_options: the long options of -i's names (tool_syms.h), taken out of argv before
 * getopt; an option's argument (a -n clause) is kept as it is. 0, or -1 after saying why. */
static int take_syms_options(int *argcp, char **argv)
{
    int argc = *argcp, nkept = 1, k = 1;
    for (; k < argc; k++) {
        const char *a = argv[k];
        int r = a[0] == '-' && a[1] == '-' && a[2] ? syms_option("dtrace", argc, argv, &k) : 0;
        if (r < 0)
            return -1;
        if (r)
            continue;
        argv[nkept++] = argv[k];
        if (!strcmp(a, "--")) {
            k++;
            break;
        }
        for (const char *c = a[0] == '-' ? a + 1 : ""; *c; c++)
            if (strchr("bcDfiImnopPsTUx", *c)) {
                if (!c[1] && k + 1 < argc)
                    argv[nkept++] = argv[++k];
                break;
            }
    }
    while (k < argc)    /* after "--": as they are */
        argv[nkept++] = argv[k++];
    *argcp = nkept;
    argv[nkept] = NULL;
    return 0;
}

/* add_clause: -n's clause appended to the program text; a bare description gets an empty
 * body. -P, -m and -f (opt) name the provider, module or function alone, as dtrace(1M)'s:
 * "p:::", "m::", "f:" */
static void add_clause(struct cli *c, int opt, const char *arg)
{
    char desc[512];
    if (opt != 'n') {
        snprintf(desc, sizeof(desc), "%s%s", arg, opt == 'P' ? ":::" : opt == 'm' ? "::" : ":");
        arg = desc;
    }
    size_t n = strlen(arg);
    int bare = strchr(arg, '{') == NULL;
    c->text = realloc(c->text, c->textlen + n + 5);
    memcpy(c->text + c->textlen, arg, n);
    c->textlen += n;
    if (bare) {
        memcpy(c->text + c->textlen, " {}", 3);
        c->textlen += 3;
    }
    c->text[c->textlen++] = '\n';
    c->text[c->textlen] = 0;      /* (the fifth byte: strstr reads it) */
}

/* take_process: -c CMD or -p PID (opt); only one: $target names one process. 0, or 2 after
 * saying why. */
static int take_process(struct cli *c, int opt, const char *arg)
{
    char *end;
    if (c->target_cmd || c->grab) {
        fprintf(stderr, "dtrace: only one -c or -p: $target names one process\n");
        return 2;
    }
    if (opt == 'c') {
        c->target_cmd = arg;
        return 0;
    }
    c->target = strtoll(arg, &end, 10);
    if (end == arg || *end || c->target <= 0) {
        fprintf(stderr, "dtrace: invalid process ID: %s\n", arg);
        return 2;
    }
    c->grab = 1;
    return 0;
}

/* parse_args: dtrace(1M)'s options into *o and *c. 0, or the exit status after saying why. */
static int parse_args(int argc, char **argv, struct options *o, struct cli *c)
{
    int opt;
    while ((opt = getopt(argc, argv, "Ab:c:CD:eFf:i:I:m:n:lo:p:P:qSs:T:U:vwx:Z")) != -1) {
        switch (opt) {
        case 'b':
            if (set_option(o, "bufsize", optarg))
                return 2;
            break;
        case 'C': c->cpp = 1; break;
        case 'A':
            fprintf(stderr, "dtrace: -A (anonymous tracing) is not available: it keeps a "
                    "program in the kernel's configuration for the next boot, and the host "
                    "has no such kernel. On a board, make dtrace S=script.d loads the "
                    "program before any program of the image starts (docs/dtrace-target.md)\n");
            return 2;
        case 'c':
        case 'p':
            if (take_process(c, opt, optarg))
                return 2;
            break;
        case 'D': case 'U': case 'I': {
            char *a = malloc(strlen(optarg) + 3);
            sprintf(a, "-%c%s", opt, optarg);
            if (ncpp_defs == (int)(sizeof(cpp_defs) / sizeof(cpp_defs[0]))) {
                fprintf(stderr, "dtrace: too many -D, -U and -I options\n");
                return 2;
            }
            cpp_defs[ncpp_defs++] = a;
            break;
        }
        case 'F': o->flowindent = 1; break;
        case 'v': c->verbose = 1; break;
        case 'w': o->destructive = 1; break;
        case 'Z': o->zdefs = 1; break;
        case 'e': c->compile_only = 1; break;
        case 'i': c->capture = optarg; break;
        case 'l': c->list = 1; break;
        case 'P': case 'm': case 'f': case 'n': add_clause(c, opt, optarg); break;
        case 'o': c->outpath = optarg; break;
        case 'q': o->quiet = 1; break;
        case 'S': c->show_dif = 1; break;
        case 's': c->script = optarg; break;
        case 'T': c->bind_name = optarg; break;
        case 'x':
            if (set_option_str(o, optarg))
                return 2;
            break;
        default:   /* getopt named the option, as dtrace(1M)'s does */
            fprintf(stderr, "dtrace --help lists the options\n");
            return 2;
        }
    }
    return 0;
}

/* start_target: $target's process: -p's, -c's (created, to run once tracing does: *child),
 * over a capture one of the capture's (as dtrace(1M) grabs or creates it before compiling).
 * 0, or the exit status after saying why. */
static int start_target(struct cli *c, int live, pid_t *child)
{
    if (live && (c->target_cmd || c->grab || (c->text && strstr(c->text, "$target")))) {
        fprintf(stderr, "dtrace: -c, -p and $target name a capture's process: not over a live "
                "source (its processes are not known before it runs)\n");
        return 2;
    }
    if (c->capture && (c->target_cmd || c->grab)) {
        if (kev_capture_target(c->capture, c->target_cmd, &c->target) != 0)
            return 1;
    } else if (c->target_cmd) {
        if ((*child = cmdproc_create(c->target_cmd)) < 0)
            return 1;
        c->target = *child;
    } else if (c->grab && cmdproc_grab((pid_t)c->target) != 0) {
        return 1;
    }
    return 0;
}

/* compile: the program compiled into *co. Over a capture with $target and no -c or -p, it is
 * first compiled with a placeholder pid to learn which program its pid$target probes name,
 * whose only process in the capture $target then is. 0, or 1 after saying why. */
static int compile(struct cli *c, const struct options *o, struct dcc_in *in,
                   struct dcc_macros *macros, struct dcc_out *co)
{
    static uint8_t arena[4u << 20] __attribute__((aligned(8)));
    if (c->capture && !c->target_cmd && !c->grab && strstr(c->text, "$target")) {
        enum { PLACEHOLDER = 0x7ffffffe };
        kevprogs_load();
        macros->target = PLACEHOLDER;
        if (dcc_compile(in, arena, sizeof(arena), co) == 0) {
            if (kevprogs_target(c->capture, co->obj, co->objlen, PLACEHOLDER, &c->target) != 0)
                return 1;
            if (!o->quiet)
                fprintf(stderr, "dtrace: $target is pid %lld, the capture's only process of "
                        "the program its pid probes name (-c NAME or -p PID to choose)\n",
                        (long long)c->target);
        }
        macros->target = c->target;
    }
    int rc = dcc_compile(in, arena, sizeof(arena), co);
    if (rc != 0 && c->capture && !strcmp(co->tag, "D_PDESC_ZERO") && kevprogs_load() > 0)
        rc = dcc_compile(in, arena, sizeof(arena), co);
    if (rc == 0)
        return 0;
    if (c->script)
        fprintf(stderr, "dtrace: failed to compile script %s: %s\n", c->script, co->err);
    else
        fprintf(stderr, "dtrace: invalid probe specifier %.*s: %s\n",
                (int)(c->textlen ? c->textlen - 1 : 0), c->text, co->err);
    if (c->capture && !strcmp(co->tag, "D_PDESC_ZERO"))
        kevprogs_hint(stderr);
    return 1;
}

/* apply_pragmas: the program's #pragma D options, after the command line's; then what it
 * matched, as dtrace(1M) says it. 0, or 1 after saying why. */
static int apply_pragmas(struct options *o, const struct cli *c, const struct dcc_out *co)
{
    if (co->pid_skipped) /* a pid glob placed what it could: say what it left out */
        fprintf(stderr, "dtrace: %u pid probe%s matched by a glob not placed (%s: %s)\n",
                co->pid_skipped, co->pid_skipped == 1 ? "" : "s", co->pid_skip_func,
                co->pid_skip_why);
    for (unsigned k = 0; k < co->nopts; k++) {
        o->pragma_line = co->opts[k].line > 0 ? co->opts[k].line : 1;
        if (set_option(o, co->opts[k].name, co->opts[k].value[0] ? co->opts[k].value : NULL))
            return 1;
    }
    o->pragma_line = 0;
    if (!o->quiet && !c->list) {
        if (c->script)
            fprintf(stderr, "dtrace: script '%s' matched %u probe%s\n", c->script, co->nprobes,
                    co->nprobes == 1 ? "" : "s");
        else /* like dtrace(1M): the description part of -n, before any predicate or body */
            fprintf(stderr, "dtrace: description '%.*s' matched %u probe%s\n",
                    (int)strcspn(c->text, "/{\n"), c->text, co->nprobes,
                    co->nprobes == 1 ? "" : "s");
    }
    return 0;
}

/* load: the compiled program into the engine, refusing destructive actions without -w or
 * -x destructive (as libdtrace does). 0, or 1 after saying why. */
static int load(struct dvm_state *st, const struct dcc_out *co, const struct options *o)
{
    struct dvm_opts vo = { o->bufsize, o->aggsize, o->dynvarsize, o->bufpolicy,
                           o->bufresize_manual, o->ncpus, (unsigned)o->nspec, o->specsize,
                           0 };  /* one firing at a time: a replay or the host's own */
    void *mem = malloc(ENGINE_MEM);
    char err[256];
    if (dvm_load(st, co->obj, co->objlen, &vo, mem, ENGINE_MEM, err, sizeof(err)) != 0) {
        fprintf(stderr, "dtrace: could not enable tracing: %s\n", err);
        return 1;
    }
    if (!o->destructive && dif_destructive(&st->obj)) {
        fprintf(stderr, "dtrace: could not enable tracing: Destructive actions not allowed\n");
        return 1;
    }
    return 0;
}

/* report_lowered: the sizes bufresize=auto lowered, as dtrace(1M) reports them */
static void report_lowered(const struct dvm_state *st)
{
    const struct { const char *what; uint64_t v; } lowered[] = {
        { "buffer size", st->bufsize_lowered }, { "aggregation size", st->aggsize_lowered },
        { "speculation size", st->specsize_lowered } };
    for (unsigned j = 0; j < 3; j++) {
        uint64_t v = lowered[j].v;
        const char *u = "";
        static const char *const units[] = { "k", "m", "g" };
        if (!v)
            continue;
        for (int k = 0; k < 3 && v >= 1024 && v % 1024 == 0; k++) {
            v /= 1024;
            u = units[k];
        }
        fprintf(stderr, "dtrace: %s lowered to %llu%s\n", lowered[j].what, (unsigned long long)v,
                u);
    }
}

/* console_init: the consumer over st, writing to out (through the symboliser over a
 * capture), with the options that shape its output */
static void console_init(struct dcons *cons, struct dvm_state *st, struct options *o, FILE *out,
                         int capture)
{
    static struct dcons_out so, se;
    static const struct dcons_host host = { host_setopt, host_freopen, host_system, NULL,
                                            host_raise };
    sym_on = capture;
    so = (struct dcons_out){ sym_on ? sym_write : file_write, out };
    se = (struct dcons_out){ file_write, stderr };
    size_t cmem_len = 16u << 20;
    dcons_init(cons, st, &so, &se, malloc(cmem_len), cmem_len);
    cons->quiet = (int)o->quiet;
    cons->aggsortkey = (int)o->aggsortkey;
    cons->aggsortrev = (int)o->aggsortrev;
    cons->droptags = (int)o->droptags;
    run_capture = capture;
    cons->host = &host;
    run_opts = o;
    run_out = out;
    cons->noerror = (int)o->noerror;
    cons->aggsortkeypos = o->aggsortkeypos;
    cons->aggsortpos = o->aggsortpos;
    cons->aggzoom = (int)o->aggzoom;
    cons->agghist = (int)o->agghist;
    cons->aggpack = (int)o->aggpack;
    cons->term_ascii = term_ascii();
    cons->encoding = (int)o->encoding;
    cons->flowindent = (int)o->flowindent;
}

int main(int argc, char **argv);

/* Virtual time: timestamps start at the host's monotonic clock; vt is the time since. */
struct vclock {
    uint64_t t0, wall0, vt;
};

static void vclock_set(struct vclock *vc, struct dvm_ctx *ctx, uint64_t vt)
{
    vc->vt = vt;
    ctx->timestamp = vc->t0 + vt;
    ctx->vtimestamp = vt;
    ctx->walltimestamp = vc->wall0 + vt;
}

/* fire_timers: the timer probes due at the virtual time (next: each one's next firing, by
 * probe index), each moved on by its period. As profile-provider probes: arg0 the kernel PC,
 * arg1 the user PC, one of them 0; the virtual timer interrupts this process in user mode,
 * here (main). */
static void fire_timers(struct dvm_state *st, struct dvm_ctx *ctx, const struct options *o,
                        uint64_t *next, uint64_t vt)
{
    const struct dif_obj *ob = &st->obj;
    for (uint32_t k = 0; k < ob->hdr->dh_nprobes; k++) {
        const struct dif_probe *p = &ob->probes[k];
        if (!p->dp_flags || next[k] != vt)
            continue;
        uint64_t args[DVM_NARGS] = { 0, (uint64_t)(uintptr_t)main };
        unsigned ncpu = p->dp_flags & DIF_PRF_PROFILE ? o->ncpus : 1;
        for (ctx->cpu = 0; ctx->cpu < ncpu; ctx->cpu++)
            if (!(p->dp_flags & DIF_PRF_PROFILE) || !o->cpu_only || ctx->cpu == o->cpu_only - 1u)
                dvm_fire(st, ctx, p->dp_id, args);
        ctx->cpu = 0;
        next[k] += p->dp_period;
    }
}

/* run_host: the program on the host, with no capture: BEGIN, then its timer probes in
 * virtual time, the buffers read every switchrate, until exit( ), a signal, a full buffer or
 * (-c, -p) the end of $target's process. 0, or 1 after saying why. */
static int run_host(struct dvm_state *st, struct dcons *cons, struct dvm_ctx *ctx,
                    const struct options *o, struct vclock *vc, const struct cli *c, pid_t child)
{
    const struct dif_obj *ob = &st->obj;
    /* each timer probe's next firing, by probe index (any index: a program may name many
     * probes before its timers) */
    uint32_t ntimers = 0;
    uint64_t *next = calloc(ob->hdr->dh_nprobes + 1u, sizeof(uint64_t));
    if (!next) {
        fprintf(stderr, "dtrace: out of memory\n");
        return 1;
    }
    for (uint32_t k = 0; k < ob->hdr->dh_nprobes; k++)
        if (ob->probes[k].dp_flags)   /* a timer (a USDT site's dp_period is its address) */
            next[k] = ob->probes[k].dp_period, ntimers++;
    /* the consumer reads the buffers every switchrate, or every aggrate when that is shorter:
     * printa( ) then shows aggregations no older than aggrate, as libdtrace's snapshots do */
    uint64_t period = o->aggrate_ns && o->aggrate_ns < o->switchrate_ns ? o->aggrate_ns
                                                                        : o->switchrate_ns;
    uint64_t next_switch = period;
    dvm_fire_begin(st, ctx);
    consume(st, cons, 0);
    if (child > 0) { /* -c: the command runs once tracing does, as in dtrace(1M) */
        fflush(run_out);
        cmdproc_go();
    }
    /* -c / -p: tracing ends when that process does */
    pid_t watched = child > 0 ? child : (pid_t)c->target;
    int watch = child > 0 || c->grab, gone = 0;
    while (ntimers && !st->exiting && !interrupted && !dvm_stats_total(st).filled && !gone) {
        uint64_t t = next_switch;
        for (uint32_t k = 0; k < ob->hdr->dh_nprobes; k++)
            if (ob->probes[k].dp_flags && next[k] < t)
                t = next[k];
        vclock_set(vc, ctx, t);
        if (t == next_switch) {
            consume(st, cons, 0);
            gone = watch && cmdproc_exited(watched, child > 0);
            fflush(run_out);
            next_switch += period;
            continue;
        }
        fire_timers(st, ctx, o, next, t);
    }
    while (watch && !gone && !st->exiting && !interrupted && !dvm_stats_total(st).filled) {
        struct timespec tick = { 0, 10000000 }; /* no timer probes: wait in real time */
        nanosleep(&tick, NULL);
        consume(st, cons, 0);
        gone = cmdproc_exited(watched, child > 0);
    }
    free(next);
    return 0;
}

/* replay: the program over the capture or live source (live_in, with what was read of it
 * already). -1 after saying why, 1 when the capture was damaged (what was read is reported,
 * END too, and the exit status is 1), else 0. */
static int replay(struct dvm_state *st, struct dcons *cons, struct dvm_ctx *ctx,
                  const struct options *o, const char *capture, struct kev_input *live_in,
                  uint8_t *live_pre, size_t live_npre)
{
    kev_kvar_replay(o->ncpus);
    struct kev_live *l = live_in ? kev_live_new(live_in->name) : NULL;
    if (live_in && !l) {
        fprintf(stderr, "dtrace: out of memory\n");
        return -1;
    }
    int rr = live_in ? kev_replay_live(l, live_in, live_pre, live_npre, st, cons,
                                       o->switchrate_ns, o->ncpus, o->cpu_only, &interrupted,
                                       ctx, flush_out)
                     : kev_replay(capture, st, cons, o->switchrate_ns, o->ncpus, o->cpu_only,
                                  &interrupted, ctx);
    kev_live_free(l);
    free(live_pre);
    return rr < 0 ? -1 : rr > 0;
}

/* exit_time: after exit( ) on the host, dtrace(1M) learns of it at its next status check,
 * every statusrate (1s, at most 10s as the kernel clamps it): END fires then, in virtual
 * time. */
static void exit_time(struct vclock *vc, struct dvm_ctx *ctx, const struct options *o)
{
    uint64_t sr = o->statusrate_ns ? o->statusrate_ns : 1000000000ull;
    if (sr > 10000000000ull)
        sr = 10000000000ull;
    vclock_set(vc, ctx, (vc->vt / sr + 1) * sr);
}

/* read_script: -s's script, through cpp with -C, as the program text. 0, or 1 after saying
 * why. */
static int read_script(struct cli *c)
{
    c->text = c->cpp ? run_cpp(c->script, &c->textlen)
                     : (char *)tool_read_file(c->script, &c->textlen);
    if (c->text)
        return 0;
    fprintf(stderr, "dtrace: failed to %s script %s: %s\n", c->cpp ? "preprocess" : "open",
            c->script, c->cpp ? "cpp failed" : strerror(errno));
    return 1;
}

/* program_args: the operands as the script's arguments, $1 on; $0 is the script (or
 * dtrace), as dtrace(1M) passes them */
static const char **program_args(int argc, char **argv, const char *script, unsigned *nargs)
{
    const char **args = calloc((size_t)(argc - optind) + 2u, sizeof(*args));
    *nargs = 0;
    args[(*nargs)++] = script ? script : argv[0];
    for (int k = optind; k < argc; k++)
        args[(*nargs)++] = argv[k];
    return args;
}

/* add_zdefs: -Z / -x zdefs, as the pragma the compiler reads (after the text, so that error
 * lines stay the script's) */
static void add_zdefs(struct cli *c)
{
    static const char z[] = "\n#pragma D option zdefs\n";
    c->text = realloc(c->text, c->textlen + sizeof(z));
    memcpy(c->text + c->textlen, z, sizeof(z));
    c->textlen += sizeof(z) - 1;
}

/* open_source: a live source read until its header has come (what was read, in *pre, is
 * replayed); the CPUs as the capture recorded them, unless -x ncpus says; -x cpu checked
 * against them. 0, or 1 after saying why. */
static int open_source(struct options *o, const struct cli *c, int live,
                       struct kev_input *live_in, uint8_t **pre, size_t *npre)
{
    unsigned live_ncpus = 1;
    if (live && kev_live_open(c->capture, (int)o->follow, live_in, pre, npre, &live_ncpus) != 0)
        return 1;
    if (c->capture && !o->ncpus_set) /* `cpu` and per-CPU buffers as recorded */
        o->ncpus = live ? live_ncpus : kev_capture_ncpus(c->capture);
    if (o->cpu_only > o->ncpus) {
        fprintf(stderr, "dtrace: could not enable tracing: cpu option: no CPU %u\n",
                o->cpu_only - 1u);
        return 1;
    }
    return 0;
}

/* show_program: -S's disassembly, -v's and -l's list of the probes the program enables;
 * whether dtrace stops there (-l, -e) */
static int show_program(const struct cli *c, struct dvm_state *st)
{
    if (c->show_dif)
        disasm(&st->obj);
    if (c->verbose && !c->list) { /* -v: no stability model to report */
        struct dcons_out se = { file_write, stderr };
        fprintf(stderr, "dtrace: the program enables these probes (stability attributes are "
                "not modelled by this engine):\n");
        dcons_list_probes(&se, &st->obj);
    }
    if (c->list) {
        struct dcons_out so = { file_write, stdout };
        dcons_list_probes(&so, &st->obj);
        return 1;
    }
    return c->compile_only;
}

/* finish_output: the consumer's output flushed (its addresses symbolised) and closed */
static void finish_output(void)
{
    if (sym_on)
        sym_flush(run_out);
    fflush(run_out);
    syms_end();
    if (run_out != stdout)
        fclose(run_out);
}

/* trace_program: the compiled program loaded and run, on the host or over the capture or
 * live source, to its END and the consumer's last output. Returns dtrace's exit status. */
static int trace_program(struct cli *c, struct options *o, const struct dcc_out *co, int live,
                         pid_t child)
{
    static struct kev_input live_in;
    uint8_t *live_pre = NULL;
    size_t live_npre = 0;
    if (open_source(o, c, live, &live_in, &live_pre, &live_npre) != 0)
        return 1;
    static struct dvm_state st;
    if (load(&st, co, o) != 0)
        return 1;
    if (show_program(c, &st))
        return 0;
    report_lowered(&st);

    FILE *out = stdout;
    if (c->outpath && !(out = fopen(c->outpath, "w"))) {
        fprintf(stderr, "dtrace: failed to open output file '%s': %s\n", c->outpath,
                strerror(errno));
        return 1;
    }
    static struct dcons cons;
    console_init(&cons, &st, o, out, c->capture != NULL);
    signal(SIGINT, on_sigint);
    signal(SIGTERM, on_sigint);

    struct vclock vc = { now_ns(CLOCK_MONOTONIC), now_ns(CLOCK_REALTIME), 0 };
    /* BEGIN runs in the consumer: one thread */
    struct dvm_ctx ctx = { 0, (int32_t)getpid(), (int32_t)getpid(), (int32_t)getppid(), 0,
                           vc.t0, 0, vc.wall0, "dtrace", 0, 1 };
    int damaged = 0;
    if (c->capture) {
        damaged = replay(&st, &cons, &ctx, o, c->capture, live ? &live_in : NULL, live_pre,
                         live_npre);
        if (damaged < 0)
            return 1;
    } else if (run_host(&st, &cons, &ctx, o, &vc, c, child) != 0) {
        return 1;
    }
    consume(&st, &cons, 0);
    if (st.exiting && !c->capture)
        exit_time(&vc, &ctx, o);
    dvm_fire(&st, &ctx, DPROBE_END, NULL);
    consume(&st, &cons, 1);
    dcons_final(&cons);
    finish_output();
    if (damaged)
        return 1;
    return cons.exited ? cons.exit_status : 0;
}

/* incident_print: dtrace -i FILE with no program, over an incident's .kev (docs/incidents.md):
 * the board's D program when its trigger fired, as its consumer would have printed it at its
 * end: each CPU's unread records, the drops it had counted, then its aggregations. Its
 * consumer's options (quiet, aggpack, encoding) are the program's .dobj header's. */
static int incident_print(struct cli *c, struct options *o)
{
    static struct kev_dsnap snap;
    static struct dvm_state st;
    if (kev_dsnap_read(c->capture, &snap) != 0 || kev_dsnap_load(&snap, &st) != 0)
        return 1;
    o->quiet = snap.hdr.quiet || o->quiet;
    o->aggpack = snap.hdr.aggpack || o->aggpack;
    if (snap.hdr.encoding)
        o->encoding = snap.hdr.encoding;
    static struct dcons cons;
    console_init(&cons, &st, o, stdout, 1);
    for (unsigned cpu = 0; cpu < snap.ncpu; cpu++) {
        st.stats[cpu].drops = snap.drops[cpu];
        for (uint32_t at = 0; at + sizeof(struct dvm_rechdr) <= snap.nrecs[cpu];) {
            const struct dvm_rechdr *h = (const void *)(snap.recs[cpu] + at);
            if (h->rh_size < sizeof(*h) || h->rh_size > snap.nrecs[cpu] - at)
                break;
            dcons_record(&cons, h);
            at += h->rh_size;
        }
    }
    dcons_drops(&cons);
    dcons_final(&cons);
    finish_output();
    return 0;
}

/* no_program: -l alone lists every probe; -i alone prints an incident's D program */
static int no_program(struct cli *c, struct options *o)
{
    if (c->list) {
        struct dcons_out so = { file_write, stdout };
        dcons_list_probes(&so, NULL);
        return 0;
    }
    return incident_print(c, o);
}

int main(int argc, char **argv)
{
    struct options o = { .bufsize = 4u << 20, .aggsize = 4u << 20, .dynvarsize = 1u << 20,
                         .switchrate_ns = 1000000000ull, .nspec = 1, .specsize = 32u << 10,
                         .bufpolicy = DVM_BUF_SWITCH, .ncpus = 1 };
    struct cli c = { 0 };
    int rc;
    for (int k = 1; k < argc; k++)
        if (!strcmp(argv[k], "--help")) {
            usage(stdout);
            return 0;
        }
    row_probes_use("dtrace");
    if (tool_fbt_kernel("dtrace", argc, argv) != 0 ||
        tool_usdt_option("dtrace", &argc, argv, 0) != 0 || kernel_symbols(argc, argv) != 0 ||
        take_syms_options(&argc, argv) != 0)
        return 2;
    if ((rc = parse_args(argc, argv, &o, &c)) != 0)
        return rc;
    if (!c.script && !c.text && (c.list || c.capture))
        return no_program(&c, &o);
    if (!c.script == !c.text) {
        usage(stderr);
        return 2;
    }
    if (c.script && read_script(&c))
        return 1;
    if (c.bind_name &&
        bind_text(&c.text, &c.textlen, c.bind_name, c.capture && !c.target_cmd && !c.grab))
        return 2;
    /* the macro variables are this process's own ids, as dtrace(1)'s; $target: -p's process
     * or -c's, over a capture one of the capture's; 0 without either */
    pid_t child = -1;
    int live = c.capture && kev_live_source(c.capture, (int)o.follow);
    if ((rc = start_target(&c, live, &child)) != 0)
        return rc;
    unsigned nargs;
    const char **args = program_args(argc, argv, c.script, &nargs);
    struct dcc_macros macros = { .pid = getpid(), .ppid = getppid(), .pgid = getpgrp(),
                                 .sid = getsid(0), .uid = getuid(), .gid = getgid(),
                                 .euid = geteuid(), .egid = getegid(), .target = c.target,
                                 .argv = args, .argc = nargs,
                                 .defaultargs = (int)o.defaultargs, .argref = (int)o.argref };
    /* $pid over a capture: the board's dtrace that made it (its DPROG go's consumer), so that
     * `pid != $pid` leaves out the same process on both sides; over a live source or a capture
     * of no D program's run, this process's own */
    if (c.capture && !live && strstr(c.text, "$pid") &&
        kev_capture_consumer(c.capture, &macros.pid) < 0)
        return 1;
    if (o.zdefs)
        add_zdefs(&c);
    struct dcc_in in = { c.text, c.textlen, (unsigned)o.strsize, (int)o.errtags, &macros, 0 };
    struct dcc_out *co = calloc(1, sizeof(*co));
    /* Over a capture, the programs it ran are found by the build ids it records (kevprogs.h):
     * their USDT and pid probes are read when the program needs them, to bind $target or when
     * a probe matched nothing without them (compile). */
    uint8_t *cap_data = NULL;
    size_t cap_len = 0;
    int cap_mapped = 0;
    if (c.capture && !live && syms_active() &&
        (cap_data = tool_map_file(c.capture, &cap_len, &cap_mapped))) {
        syms_trace("dtrace", cap_data, cap_len);
    }
    if (c.capture)
        capture_kernel();
    if (compile(&c, &o, &in, &macros, co) != 0)
        return 1;
    o.script = c.script;
    if (apply_pragmas(&o, &c, co) != 0)
        return 1;
    rc = trace_program(&c, &o, co, live, child);
    if (cap_data)
        tool_unmap_file(cap_data, cap_len, cap_mapped);
    return rc;
}
