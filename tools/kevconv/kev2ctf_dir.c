// SPDX-License-Identifier: MIT
// kev2ctf: converts a .kev trace into a CTF 1.8 trace directory (metadata + one stream file
// per CPU, channel0_<cpu>) that babeltrace2, Trace Compass and LTTng's analyses read, laid out
// as an LTTng session holds a kernel trace (-o DIR: DIR/kernel). The encoding is kev2ctf.c's
// (kev2ctf.h), the one kevlive serves live; this file decodes the capture into it and writes
// each packet to its CPU's file.
// Exit status: 0 ok, 1 damaged or unreadable input or a write error (what was decoded before
// the problem is written), 2 bad usage.
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kev2ctf.h"
#include "ctf_exec.h"
#include <kevhost/tool_syms.h>
#include <trace/kev_bytes.h>

static const struct tool_opt opts[] = {
    { 'o', 'o', NULL, "DIR", "output directory", NULL },
    { 'v', 'v', NULL, NULL, "print a summary (events, packets, discarded) on stderr", NULL },
    { .also = syms_opts },
    { 0 },
};
static const struct tool_cmd cmd = {
    "kev2ctf", "[-v] [--symbols DIR]... -o DIR FILE.kev",
    "Converts a .kev trace into a CTF 1.8 kernel trace laid out as an LTTng session:\n"
    "DIR/kernel/metadata and DIR/kernel/channel0_<cpu> (DIR, and kernel, created if\n"
    "needed; a DIR named kernel is the trace itself). babeltrace2 DIR, Trace Compass and\n"
    "LTTng's analyses (lttng-cputop DIR ...) read it.\n"
    "A fault's function and a stack's frames are named from the ELF files the capture\n"
    "ran, found by build id.\n",
    opts, "Exit status: 0 ok, 1 damaged or unreadable input or write error, 2 bad usage.\n",
};

// The trace directory: each CPU's stream file, opened at its first packet.
struct dir_out {
    const char *dir;
    FILE *f[KEV_MAX_CPUS];
};

static int put_packet(void *user, const struct ctf_packet *pk)
{
    struct dir_out *d = user;
    if (!d->f[pk->cpu]) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/channel0_%u", d->dir, pk->cpu);
        if (!(d->f[pk->cpu] = fopen(path, "wb"))) {
            fprintf(stderr, "kev2ctf: %s: %s\n", path, strerror(errno));
            return -1;
        }
        setvbuf(d->f[pk->cpu], NULL, _IOFBF, 1 << 20);
    }
    return fwrite(pk->p, 1, pk->n, d->f[pk->cpu]) == pk->n ? 0 : -1;
}

// The trace's uuid: a hash of the capture's first and last 64 KiB and its length.
static void make_uuid(const struct kx_file *f, uint8_t uuid[16])
{
    uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
    size_t n = f->len < 65536 ? f->len : 65536;
    for (size_t i = 0; i < n; i++) {
        h1 = (h1 ^ f->data[i]) * 0x100000001b3ull;
        h2 = (h2 ^ f->data[f->len - 1 - i]) * 0x100000001b3ull;
    }
    h2 ^= f->len;
    kev_put_le64(uuid, h1);
    kev_put_le64(uuid + 8, h2);
    uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x40); // version 4 layout
    uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80);
}

// mkdir -p: DIR and its missing parents. 0, or -1 with errno set.
static int make_dirs(const char *dir)
{
    char path[4096];
    size_t n = strlen(dir);
    if (n >= sizeof(path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(path, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] != '/' && path[i] != 0)
            continue;
        char keep = path[i];
        path[i] = 0;
        if (mkdir(path, 0777) && errno != EEXIST)
            return -1;
        path[i] = keep;
    }
    return 0;
}

// The trace's directory for -o DIR: DIR/kernel, as an LTTng session holds a kernel trace (LTTng's
// analyses read the tracer's version from the directory named kernel), or DIR itself when it
// is already named kernel (-o SESSION/kernel). 0, or -1 when the path is too long.
static int trace_dir(const char *dir, char *out, size_t n)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    const char *base = dir + len;
    while (base > dir && base[-1] != '/')
        base--;
    int named_kernel = dir + len - base == 6 && !strncmp(base, "kernel", 6);
    int k = snprintf(out, n, named_kernel ? "%.*s" : "%.*s/kernel", (int)len, dir);
    return k < 0 || (size_t)k >= n ? -1 : 0;
}

static int write_metadata(const char *dir, const struct kx_file *f, const uint8_t uuid[16])
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/metadata", dir);
    FILE *mf = fopen(path, "w");
    if (!mf) {
        fprintf(stderr, "kev2ctf: %s: %s\n", path, strerror(errno));
        return -1;
    }
    struct ctf_clock clk;
    ctf_enc_clock(f->r, &clk);
    ctf_enc_metadata(mf, f->r, uuid, &clk);
    if (fclose(mf)) {
        fprintf(stderr, "kev2ctf: %s: write error\n", path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *in = NULL, *dir = NULL;
    int verbose = 0;
    struct tool_args a = { argc, argv, 0, NULL };
    for (int id; (id = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END;) {
        if (id < 0)
            return tool_opts_exit(id);
        if (id == 'v')
            verbose = 1;
        else if (id == 'o')
            dir = a.val;
        else if (syms_take(cmd.name, id, a.val) < 0)
            return 2;
    }
    if (tool_one_file(&cmd, &a, &in))
        return 2;
    if (!dir)
        return tool_usage_error(&cmd, "-o DIR is required");
    static char tdir[4000]; // room for the file names within the 4096 of a path
    if (trace_dir(dir, tdir, sizeof(tdir)))
        return tool_usage_error(&cmd, "-o %s: too long a path", dir);
    dir = tdir;
    struct kx_file f;
    if (kx_open("kev2ctf", in, &f))
        return 1;
    if (make_dirs(dir)) {
        fprintf(stderr, "kev2ctf: %s: %s\n", dir, strerror(errno));
        kx_close(&f);
        return 1;
    }
    static struct kx_model m;
    static struct dir_out d;
    uint8_t uuid[16];
    d.dir = dir;
    kx_model_init(&m, f.r);
    ctf_kcall_layouts(f.r);
    syms_trace("kev2ctf", f.data, f.len);
    make_uuid(&f, uuid);
    struct ctf_enc *c = ctf_enc_new(&m, uuid, put_packet, &d);
    if (!c) {
        fprintf(stderr, "kev2ctf: out of memory\n");
        kx_close(&f);
        return 1;
    }
    // each run's executed share first: the model needs time order, the encoder the file's
    struct ctf_exec *x = ctf_exec_file(&f);
    if (!x) {
        fprintf(stderr, "kev2ctf: out of memory\n");
        ctf_exec_free(x), ctf_enc_free(c), kx_close(&f);
        return 1;
    }
    ctf_enc_exec(c, x);
    int rc = kx_pass_run("kev2ctf", &f, ctf_enc_pass(c));
    int werr = ctf_enc_finish(c, f.r, !rc);
    for (unsigned cpu = 0; cpu < KEV_MAX_CPUS; cpu++)
        if (d.f[cpu] && fclose(d.f[cpu]))
            werr = 1;
    if (write_metadata(dir, &f, uuid))
        werr = 1;
    if (werr && !rc)
        fprintf(stderr, "kev2ctf: %s: write error\n", dir);
    struct ctf_enc_counts n;
    ctf_enc_counts(c, &n);
    if (n.unplaced)
        fprintf(stderr, "kev2ctf: %llu kernel-call fields beyond their call's layout were not"
                        " written (kevtable shows them)\n", (unsigned long long)n.unplaced);
    if (verbose)
        fprintf(stderr, "kev2ctf: %llu events (+%llu derived), %llu packets, %llu discarded\n",
                (unsigned long long)n.events, (unsigned long long)n.derived,
                (unsigned long long)n.packets, (unsigned long long)n.discarded);
    ctf_enc_free(c);
    ctf_exec_free(x);
    syms_end();
    kx_close(&f);
    return rc || werr ? 1 : 0;
}
