// SPDX-License-Identifier: MIT
// dcompile: compiles a D program on the host for a target board (`make dtrace S=script.d`).
// The object and its options go into one file (d/dobj_file.h) that the target's dtrace
// program loads into the kernel. Compile errors are reported as dtrace(1M) does, with exit 1.
// Target defaults are small (a board has kilobytes, not megabytes): bufsize 8k, aggsize 32k,
// dynvarsize 16k, specsize 4k, nspec 1, switchrate 1hz (the target reads 8k of records at once);
// #pragma D option and -x change them.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <d/dcc.h>
#include <d/dvm.h>
#include <d/dobj_file.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: dcompile [-q] [-x opt=value]... (-s script.d | -n 'clause') -o out.dobj\n"
               "Compiles a D program for the target (make dtrace S=script.d boots it).\n"
               "  -s FILE   the D program      -n TEXT   a program given inline\n"
               "  -q        quiet output       -x o=v    bufsize, aggsize, dynvarsize, specsize,\n"
               "            nspec, bufpolicy (switch|fill|ring), bufresize (auto|manual),\n"
               "            switchrate (hz or ms), quiet\n"
               "  -o FILE   where the compiled program goes\n"
               "Exit status: 0 compiled, 1 compile error or bad option, 2 bad usage.\n");
}

// "16k", "4m", "512": bytes; 0 when malformed.
static uint32_t size_value(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return 0;
    if (*end == 'k' || *end == 'K')
        v <<= 10, end++;
    else if (*end == 'm' || *end == 'M')
        v <<= 20, end++;
    return *end || v > (1u << 20) ? 0 : (uint32_t)v;
}

static int set_option(struct dobj_file_hdr *h, const char *name, const char *val)
{
    uint32_t v;
    if (!strcmp(name, "quiet")) {
        h->quiet = 1;
        return 0;
    }
    if (!val)
        goto bad;
    if (!strcmp(name, "bufpolicy")) {
        if (!strcmp(val, "switch")) h->bufpolicy = DVM_BUF_SWITCH;
        else if (!strcmp(val, "fill")) h->bufpolicy = DVM_BUF_FILL;
        else if (!strcmp(val, "ring")) h->bufpolicy = DVM_BUF_RING;
        else goto bad;
        return 0;
    }
    if (!strcmp(name, "bufresize")) {
        if (strcmp(val, "auto") && strcmp(val, "manual"))
            goto bad;
        h->bufresize_manual = !strcmp(val, "manual");
        return 0;
    }
    if (!strcmp(name, "switchrate")) {
        char *end;
        unsigned long n = strtoul(val, &end, 10);
        if (!n || (*end && strcmp(end, "hz") && strcmp(end, "ms")))
            goto bad;
        h->switchrate_ms = !strcmp(end, "ms") ? (uint32_t)n : (uint32_t)(1000 / n ? 1000 / n : 1);
        return 0;
    }
    if (!(v = size_value(val)) && strcmp(name, "nspec"))
        goto bad;
    if (!strcmp(name, "bufsize")) h->bufsize = v;
    else if (!strcmp(name, "aggsize")) h->aggsize = v;
    else if (!strcmp(name, "dynvarsize")) h->dynvarsize = v;
    else if (!strcmp(name, "specsize")) h->specsize = v;
    else if (!strcmp(name, "nspec")) h->nspec = (uint32_t)strtoul(val, NULL, 10);
    else if (!strcmp(name, "strsize")) return 0;       // the compiler took it
    else {
        fprintf(stderr, "dcompile: unsupported option: %s\n", name);
        return -1;
    }
    return 0;
bad:
    fprintf(stderr, "dcompile: invalid value for option %s: %s\n", name, val ? val : "(none)");
    return -1;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    struct dobj_file_hdr h = {
        .magic = DOBJ_MAGIC, .version = DOBJ_VERSION, .bufsize = 8192, .aggsize = 32768,
        .dynvarsize = 16384, .specsize = 4096, .nspec = 1, .bufpolicy = DVM_BUF_SWITCH,
        .switchrate_ms = 1000,
    };
    const char *script = NULL, *inline_src = NULL, *out = NULL;
    char *xs[32];
    int nx = 0, opt;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
    while ((opt = getopt(argc, argv, "qx:s:n:o:h")) != -1) {
        switch (opt) {
        case 'q': h.quiet = 1; break;
        case 'x': if (nx < 32) xs[nx++] = optarg; break;
        case 's': script = optarg; break;
        case 'n': inline_src = optarg; break;
        case 'o': out = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!out || !!script == !!inline_src || optind != argc) {
        usage(stderr);
        return 2;
    }
    size_t len = 0;
    char *src = inline_src ? strdup(inline_src) : read_file(script, &len);
    if (!src) {
        fprintf(stderr, "dcompile: cannot read %s: %s\n", script, strerror(errno));
        return 1;
    }
    if (inline_src)
        len = strlen(src);
    size_t arena_len = 1u << 20;
    void *arena = malloc(arena_len);
    struct dcc_in in = { .src = src, .len = len };
    static struct dcc_out co;
    if (!arena || dcc_compile(&in, arena, arena_len, &co) < 0) {
        fprintf(stderr, "dtrace: failed to compile script %s: %s\n",
                script ? script : "(inline)", co.err);
        return 1;
    }
    for (unsigned i = 0; i < co.nopts; i++)
        if (set_option(&h, co.opts[i].name, co.opts[i].value[0] ? co.opts[i].value : NULL))
            return 1;
    for (int i = 0; i < nx; i++) {
        char *eq = strchr(xs[i], '=');
        if (eq)
            *eq++ = '\0';
        if (set_option(&h, xs[i], eq))
            return 1;
    }
    h.objlen = (uint32_t)co.objlen;
    FILE *f = fopen(out, "wb");
    if (!f || fwrite(&h, sizeof(h), 1, f) != 1 || fwrite(co.obj, 1, co.objlen, f) != co.objlen ||
        fclose(f) != 0) {
        fprintf(stderr, "dcompile: cannot write %s: %s\n", out, strerror(errno));
        return 1;
    }
    return 0;
}
