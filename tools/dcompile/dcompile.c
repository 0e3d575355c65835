// SPDX-License-Identifier: MIT
// dcompile: compiles a D program on the host for a target board (`make dtrace S=script.d`).
// The object and its options go into one file (d/dobj_file.h) that the target's dtrace
// program loads into the kernel. Compile errors are reported as dtrace(1M) does, with exit 1.
// Target defaults are small (a board has kilobytes, not megabytes): bufsize 8k, aggsize 256k,
// dynvarsize 16k, specsize 4k, nspec 1, switchrate 1hz (the target reads 8k of records at once);
// #pragma D option and -x change them.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <d/dcc.h>
#include <d/dcpp.h>
#include <d/dvm.h>
#include <d/dobj_file.h>
#include <d/dobj_opts.h>
#include <d/dtarget.h>
#include <d/dif.h>
#include <d/dprobes.h>
#include <d/optval.h>
#include <kevhost/dif_target.h>
#include <kevhost/tool_file.h>
#include <kevhost/tool_fbt.h>
#include <kevhost/tool_usdt.h>
#include <kevhost/tool_elfsym.h>
#include <kevhost/tool_opts.h>
#include <kevhost/row_probes.h>

static const struct tool_opt opts[] = {
    { 's', 's', NULL, "FILE", "the D program", NULL },
    { 'n', 'n', NULL, "TEXT", "a program given inline", NULL },
    { 'o', 'o', NULL, "FILE", "where the compiled program goes", NULL },
    { 'q', 'q', NULL, NULL, "quiet output", NULL },
    { 'x', 'x', NULL, "OPT=VALUE",
      "bufsize, aggsize, dynvarsize, specsize, nspec, bufpolicy\n"
      "(switch|fill|ring), bufresize (auto|manual), switchrate (hz or ms),\n"
      "quiet, strsize, defaultargs, argref, destructive", NULL },
    { 'T', 'T', NULL, "NAME",
      "$target is the first process named NAME, from its first kernel call\n"
      "(d/dtarget.h); without -T, the program its pid$target probes name", NULL },
    { 'Z', 'Z', NULL, NULL, "permit probe descriptions that match no probe", NULL },
    { 'C', 'C', NULL, NULL,
      "run the script through the preprocessor the board's dtrace -C has\n"
      "(trace/d/dcpp.c: #define, #if, no #include)", NULL },
    // taken out of argv before the loop (tool_fbt_kernel, tool_usdt_option, kernel_symbols)
    { TOOL_OPT_LONG, 0, "kernel", "FILE",
      "the board image's ELF file: D's `symbol is its address there,\n"
      "and its fbt table names the fbt probes (docs/fbt.md)", NULL },
    { TOOL_OPT_LONG + 1, 0, "elf", "FILE",
      "a program's ELF file: its USDT probes (docs/usdt.md) and the\n"
      "functions pid probes name (docs/pid.md)", NULL },
    { TOOL_OPT_LONG + 2, 0, "sample-hz", "FILE",
      "write to FILE the rate (Hz) of the compiled program's fastest\n"
      "profile-N probe, 0 without one: make dtrace's stack-sample rate\n"
      "(tracelogger -p), whatever macros and arguments made N", NULL },
    { 0 },
};
/* --sample-hz FILE: the rate of the program's fastest profile-N probe (its period in the
 * compiled object, ns), 0 without one, so that make dtrace samples stacks at that rate
 * (scripts/run-dtrace.sh) when $1 or a #define made N. 0, or 1 said. */
static int write_sample_hz(const char *path, const struct dcc_out *co)
{
    static struct dif_obj o;
    char err[256];
    uint64_t fastest = 0;
    if (dif_verify(co->obj, co->objlen, &o, err, sizeof(err)) != 0) {
        fprintf(stderr, "dcompile: --sample-hz: %s\n", err);
        return 1;
    }
    for (uint32_t k = 0; k < o.hdr->dh_nprobes; k++)
        if ((o.probes[k].dp_flags & DIF_PRF_PROFILE) && o.probes[k].dp_period &&
            (!fastest || o.probes[k].dp_period < fastest))
            fastest = o.probes[k].dp_period;
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, "%llu\n", fastest ? (unsigned long long)(1000000000u / fastest) : 0ull)
                  < 0 || fclose(f) != 0) {
        fprintf(stderr, "dcompile: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

static const struct tool_cmd cmd = {
    "dcompile", "[-qCZ] [-T program] [-x opt=value]... (-s script.d | -n 'clause') "
    "-o out.dobj [arg ...]",
    "Compiles a D program for the target (make dtrace S=script.d boots it).\n"
    "  arg ...   the script's arguments: $1, $2 ... ($$1 as a string; $0 the script)\n",
    opts, "Exit status: 0 compiled, 1 compile error or bad option, 2 bad usage.\n",
};


/* kernel_symbols: --kernel FILE (the kernel image's ELF file, whose symbols D's `name gives)
 * taken out of argv before getopt; 0, or -1 after saying why. */
static int symbol_of(const char *module, const char *name, uint64_t *addr)
{
    return elfsym_address(module, name, addr);
}

static int kernel_symbols(int *argc, char **argv)
{
    int n = 1;
    for (int k = 1; k < *argc; k++) {
        if (!strcmp(argv[k], "--kernel") && k + 1 < *argc) {
            if (elfsym_add("dcompile", argv[++k], 1) != 0)
                return -1;
            dcc_symbol = symbol_of;
            dcc_kvar = elfsym_object;
            continue;
        }
        argv[n++] = argv[k];
    }
    *argc = n;
    argv[n] = NULL;
    return 0;
}

/* bind_target: src with $target bound to the first process named name (d/dtarget.h), its
 * length in *n; NULL when name is not a program name. */
static char *bind_target(const char *src, size_t len, const char *name, size_t *n)
{
    size_t cap = len * 3 + 512;
    char *bound = malloc(cap);
    *n = bound ? d_target_text(src, len, name, bound, cap) : 0;
    if (!*n) {
        free(bound);
        return NULL;
    }
    return bound;
}

/* target_program: without -T, $target is bound as dtrace -i binds it over a capture (docs/
 * d-consumer.md): by the one program the pid$target probes name, its first process to reach
 * one (as -T NAME). The text is compiled once with $target bound to a placeholder name to learn
 * which programs those probes name. Returns that program's name, or NULL after saying why
 * (no pid$target probe, or probes on several programs: -T must say which). */
static char *target_program(const char *src, size_t len, const struct dcc_in *given, int quiet)
{
    size_t n;
    char *text = bind_target(src, len, "placeholder", &n);
    size_t arena_len = 1u << 20;
    void *arena = malloc(arena_len);
    static struct dcc_out co;
    struct dcc_in in = *given;
    in.src = text;
    in.len = n;
    char *name = NULL, names[512] = "";
    unsigned nmods = 0;
    static struct dif_obj o;
    char err[256];
    if (text && arena && dcc_compile(&in, arena, arena_len, &co) == 0 &&
        dif_verify(co.obj, co.objlen, &o, err, sizeof(err)) == 0) {
        uint32_t k = 0;
        const char *m;
        while ((m = dif_target_next(&o, DPROBE_PID_TARGET, &k))) {
            size_t l = strlen(names);
            snprintf(names + l, sizeof(names) - l, "%s%s", l ? ", " : "", m);
            if (!nmods++)
                name = strdup(m);
        }
    } else if (text && arena) {   /* the compile proper below says what is wrong */
        free(text);
        free(arena);
        return strdup("unbound");
    }
    free(text);
    free(arena);
    if (nmods == 1) {
        if (!quiet)
            fprintf(stderr, "dcompile: $target is the first process of %s, the program its "
                    "pid$target probes name (-T NAME to choose another)\n", name);
        return name;
    }
    if (!nmods)
        fprintf(stderr, "dcompile: $target names no process: give -T NAME, the program whose "
                "first process is $target (no pid$target probe names one)\n");
    else
        fprintf(stderr, "dcompile: pid$target: the probes name %u programs (%s): give -T NAME "
                "to say which one's process is $target\n", nmods, names);
    free(name);
    return NULL;
}

/* preprocess: -C, the text through the board's own preprocessor, so that a script compiled
 * here means what `dtrace -C -s` means on the board; src is freed. NULL after saying why. */
static char *preprocess(char *src, size_t *len, const char *name)
{
    static struct dcpp cpp;
    size_t cap = 4 * *len + 4096;
    char *out = malloc(cap);
    int rc = out ? dcpp_run(&cpp, src, *len, out, cap) : -1;
    free(src);
    if (rc != 0) {
        fprintf(stderr, "dtrace: failed to preprocess script %s: %s\n", name,
                out ? cpp.err : "out of memory");
        free(out);
        return NULL;
    }
    *len = cpp.outlen;
    return out;
}

/* read_program: the D program of -s FILE or -n TEXT, through the C preprocessor with -C, and
 * its length in *len; NULL (said on stderr) when it cannot be read */
static char *read_program(const char *script, const char *inline_src, int cpp, int zdefs,
                          size_t *len)
{
    char *src = inline_src ? strdup(inline_src) : (char *)tool_read_file(script, len);
    if (!src) {
        fprintf(stderr, "dcompile: cannot read %s: %s\n", script, strerror(errno));
        return NULL;
    }
    if (inline_src)
        *len = strlen(src);
    if (cpp && !(src = preprocess(src, len, script ? script : "(inline)")))
        return NULL;
    if (zdefs) { /* -Z: as the pragma, after the text so that error lines stay the script's */
        static const char z[] = "\n#pragma D option zdefs\n";
        src = realloc(src, *len + sizeof(z));
        memcpy(src + *len, z, sizeof(z));
        *len += sizeof(z) - 1;
    }
    return src;
}

/* What the command line asks for: the program (-s or -n), its output, the options the
 * compile and the object take, and the script's arguments, argv[ind..argc) (argc counts what
 * is left once --elf and --kernel are taken out). */
struct dc_opts {
    const char *script, *inline_src, *out, *target, *hz_out;
    char *xs[32];
    int nx, zdefs, cpp, ind, argc;
};

/* parse_args: the options into o and h (-q); -1 to go on, else the exit status (0 after
 * --help, 2 bad usage, said). */
static int parse_args(int argc, char **argv, struct dc_opts *o, struct dobj_file_hdr *h)
{
    int opt;
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--help")) {
            tool_help(&cmd, stdout);
            return 0;
        }
    if (tool_fbt_kernel("dcompile", argc, argv) != 0 ||
        tool_usdt_option("dcompile", &argc, argv, 1) != 0 || kernel_symbols(&argc, argv) != 0)
        return 2;
    struct tool_args a = { argc, argv, 0, NULL };
    while ((opt = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END) {
        switch (opt) {
        case 'q': h->quiet = 1; break;
        case 'Z': o->zdefs = 1; break;
        case 'C': o->cpp = 1; break;
        case 'x':
            if (o->nx == 32)
                return tool_usage_error(&cmd, "more than 32 -x options");
            o->xs[o->nx++] = (char *)a.val;
            break;
        case 's': o->script = a.val; break;
        case 'n': o->inline_src = a.val; break;
        case 'o': o->out = a.val; break;
        case 'T': o->target = a.val; break;
        case TOOL_OPT_LONG + 2: o->hz_out = a.val; break;
        default: return tool_opts_exit(opt);
        }
    }
    if (!o->out)
        return tool_usage_error(&cmd, "-o FILE is required");
    row_probes_use("dcompile");     /* the rows' own probes, numbered as the kernel numbers them */
    if (!!o->script == !!o->inline_src)
        return tool_usage_error(&cmd, "give one program: -s FILE or -n TEXT");
    o->ind = a.ind;
    o->argc = argc;
    return -1;
}

/* script_macros: the script's macros: the operands as its arguments, $1 on ($0 the script,
 * as dtrace(1M)'s), and -x defaultargs and argref; -x strsize is the compiler's (as the host
 * dtrace's), set in *in. */
static void script_macros(const struct dc_opts *o, char **argv, struct dcc_macros *macros,
                          struct dcc_in *in)
{
    const char **args = calloc((size_t)(o->argc - o->ind) + 2u, sizeof(*args));
    unsigned nargs = 0;
    args[nargs++] = o->script ? o->script : "dcompile";
    for (int k = o->ind; k < o->argc; k++)
        args[nargs++] = argv[k];
    *macros = (struct dcc_macros){ .noids = 1, .pid_at_run = 1, .argv = args, .argc = nargs };
    for (int i = 0; i < o->nx; i++) {
        uint64_t v;
        if (!strncmp(o->xs[i], "strsize=", 8) && d_optval_size(o->xs[i] + 8, &v) == 0 &&
            v >= 2 && v <= DIF_STRSIZE_MAX)
            in->strsize = (unsigned)v;
        macros->defaultargs |= !strcmp(o->xs[i], "defaultargs");
        macros->argref |= !strcmp(o->xs[i], "argref");
    }
}

/* bind_script_target: $target in the program bound to the -T program (else the one its
 * pid$target probes name) when the program starts (d/dtarget.h): *src replaced; the exit
 * status after saying why it cannot be, else -1. */
static int bind_script_target(char **src, size_t len, const char *target, struct dcc_in *in,
                              int quiet)
{
    if (!strstr(*src, "$target"))
        return -1;
    if (!target && !(target = target_program(*src, len, in, quiet)))
        return 1;
    char *bound = bind_target(*src, len, target, &in->len);
    if (!bound) {
        fprintf(stderr, "dcompile: -T %s: not a program name\n", target);
        return 2;
    }
    free(*src);
    *src = bound;
    in->src = bound;
    return -1;
}

/* write_object: the object file: its header, then the compiled program. 0, or 1 after saying
 * why. */
static int write_object(const char *out, const struct dobj_file_hdr *h, const struct dcc_out *co)
{
    FILE *f = fopen(out, "wb");
    if (!f || fwrite(h, sizeof(*h), 1, f) != 1 || fwrite(co->obj, 1, co->objlen, f) != co->objlen ||
        fclose(f) != 0) {
        fprintf(stderr, "dcompile: cannot write %s: %s\n", out, strerror(errno));
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct dobj_file_hdr h;
    dobj_defaults(&h);
    struct dc_opts o = { 0 };
    int rc = parse_args(argc, argv, &o, &h);
    if (rc >= 0)
        return rc;
    size_t len = 0;
    char *src = read_program(o.script, o.inline_src, o.cpp, o.zdefs, &len);
    if (!src)
        return 1;
    size_t arena_len = 1u << 20;
    void *arena = malloc(arena_len);
    struct dcc_macros macros;
    struct dcc_in in = { .src = src, .len = len, .macros = &macros, 0 };
    script_macros(&o, argv, &macros, &in);
    if ((rc = bind_script_target(&src, len, o.target, &in, h.quiet)) >= 0)
        return rc;
    static struct dcc_out co;
    if (!arena || dcc_compile(&in, arena, arena_len, &co) < 0) {
        fprintf(stderr, "dtrace: failed to compile script %s: %s\n",
                o.script ? o.script : "(inline)", co.err);
        return 1;
    }
    if (co.pid_skipped) /* a pid glob placed what it could: say what it left out */
        fprintf(stderr, "dcompile: %u pid probe%s matched by a glob not placed (%s: %s)\n",
                co.pid_skipped, co.pid_skipped == 1 ? "" : "s", co.pid_skip_func,
                co.pid_skip_why);
    char why[128];
    if (dobj_apply_options(&h, &co, o.xs, o.nx, why, sizeof(why)) != 0) {
        fprintf(stderr, "dcompile: %s\n", why);
        return 1;
    }
    h.objlen = (uint32_t)co.objlen;
    if (write_object(o.out, &h, &co))
        return 1;
    return o.hz_out ? write_sample_hz(o.hz_out, &co) : 0;
}
