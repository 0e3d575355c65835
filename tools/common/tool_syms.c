// SPDX-License-Identifier: MIT
// Finding the ELF files a capture ran, by their build ids (tool_syms.h): the images the
// capture names are kept as they come; the first address a tool names (an elfsym lookup)
// looks every image up that was not yet, adds the file it finds to elfsym, and says once per
// image why it has none (refused: another build id; or not found).
#define _GNU_SOURCE
#include <kevhost/tool_syms.h>
#include <kevhost/tool_elfsym.h>
#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <trace/kev_image.h>
#include <trace/kev_text.h>

#define MAX_IMAGES 64
#define MAX_GIVEN  64
#define MAX_DIRS   16

struct image {
    unsigned pid;                   // the first process seen running it (0: the kernel)
    int kernel;
    uint8_t id[KEV_IMAGE_ID_MAX];
    unsigned id_len;                // 0: the capture gives it none (nothing to check)
    char name[KEV_IMAGE_NAME_MAX];  // the program's name as recorded (raw)
    char mod[64];                   // its module name in frames: the name made safe, "kernel"
    int done;                       // looked up
    const char *path;               // its file once looked up (NULL: none found)
    int given;                      // that file was given with --elf/--kernel
};

struct given {
    const char *path;
    int kernel;
    uint8_t id[KEV_IMAGE_ID_MAX];
    int id_len;
    char mod[64];                   // the file's name without ".elf", or "kernel"
    int added;                      // its elfsym index + 1
};

static const char *tool = "?";
static struct image images[MAX_IMAGES];
static unsigned nimages;
static uint64_t images_dropped;
static struct given given[MAX_GIVEN];
static unsigned ngiven;
static const char *dirs[MAX_DIRS];
static unsigned ndirs;
static char kernel_path[KEV_IMAGE_NAME_MAX]; // the kernel image's ELF file, as built
static char board[KEV_NAME_MAX];
static int no_symbols, unchecked_done, hooked;
static const void *trace_data;      // the capture, until its images are read
static size_t trace_len;
static unsigned serial = 1;         // syms_serial: raised when the lookup starts over

// ---- the files tried for an image ---------------------------------------------------------

static void hex_of(const uint8_t *id, unsigned len, char *buf, size_t n)
{
    kev_image_id_hex(id, len, buf, n);
}

// image_base: the kernel image's name ("demo" for .../demo.elf), "" when unknown.
static void image_base(char *out, size_t n)
{
    const char *b = strrchr(kernel_path, '/');
    b = b ? b + 1 : kernel_path;
    snprintf(out, n, "%s", b);
    size_t l = strlen(out);
    if (l > 4 && !strcmp(out + l - 4, ".elf"))
        out[l - 4] = 0;
    else
        out[0] = 0;
}

// A program's name is a file name only when it holds no '/' and is not "." or "..".
static int plain_name(const char *s)
{
    return s[0] && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

struct search {
    const struct image *im;
    char refused[PATH_MAX];         // the first file found with another build id
    uint8_t refused_id[KEV_IMAGE_ID_MAX];
    int refused_len;
    char found[PATH_MAX];
};

// try_file: 1 when path is the image's file (its build id is the capture's, or the capture
// gave none), recorded in s->found; a file with another id is remembered as refused.
static int try_file(struct search *s, const char *path)
{
    uint8_t id[KEV_IMAGE_ID_MAX];
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    int len = elfsym_build_id(path, id, sizeof(id));
    if (len < 0)
        return 0;
    if (!s->im->id_len || ((unsigned)len == s->im->id_len && !memcmp(id, s->im->id, (size_t)len))) {
        snprintf(s->found, sizeof(s->found), "%s", path);
        return 1;
    }
    if (!s->refused[0]) {
        snprintf(s->refused, sizeof(s->refused), "%s", path);
        memcpy(s->refused_id, id, (size_t)len);
        s->refused_len = len;
    }
    return 0;
}

// by_id: DIR laid out by build id: gdb's debug-file-directory (.build-id/xx/rest.debug),
// perf's build-id cache (.build-id/xx/rest, a file or a directory holding "elf"), and
// debuginfod's cache and server layout (<id>/debuginfo or executable, under buildid/ too).
static int by_id(struct search *s, const char *dir)
{
    char hex[2 * KEV_IMAGE_ID_MAX + 1], p[PATH_MAX];
    if (!s->im->id_len)
        return 0;
    hex_of(s->im->id, s->im->id_len, hex, sizeof(hex));
    static const char *const forms[] = {
        "%s/.build-id/%.2s/%s.debug", "%s/.build-id/%.2s/%s/elf", "%s/.build-id/%.2s/%s",
    };
    for (unsigned k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
        snprintf(p, sizeof(p), forms[k], dir, hex, hex + 2);
        if (try_file(s, p))
            return 1;
    }
    static const char *const files[] = { "debuginfo", "executable" };
    for (unsigned k = 0; k < 2; k++) {
        snprintf(p, sizeof(p), "%s/%s/%s", dir, hex, files[k]);
        if (try_file(s, p))
            return 1;
        snprintf(p, sizeof(p), "%s/buildid/%s/%s", dir, hex, files[k]);
        if (try_file(s, p))
            return 1;
    }
    return 0;
}

// by_name: the build's own layout under dir: <image>.elf for the kernel, <image>/<name>.elf
// (or <name>.elf in dir itself) for a program.
static int by_name(struct search *s, const char *dir, const char *img)
{
    char p[PATH_MAX];
    if (s->im->kernel)
        return img[0] && snprintf(p, sizeof(p), "%s/%s.elf", dir, img) > 0 && try_file(s, p);
    if (!plain_name(s->im->name))
        return 0;
    if (img[0] && snprintf(p, sizeof(p), "%s/%s/%s.elf", dir, img, s->im->name) > 0 &&
        try_file(s, p))
        return 1;
    return snprintf(p, sizeof(p), "%s/%s.elf", dir, s->im->name) > 0 && try_file(s, p);
}

// by_build: the build directory the capture's kernel image was built in (its ELF file's
// name, as the build wrote it), then build/<board>/ under the current directory.
static int by_build(struct search *s, const char *img, char *where, size_t wn)
{
    char p[PATH_MAX];
    where[0] = 0;
    if (kernel_path[0] == '/' && img[0]) {
        const char *slash = strrchr(kernel_path, '/');
        int dl = (int)(slash - kernel_path);
        snprintf(where, wn, "%.*s", dl, kernel_path);
        if (s->im->kernel ? try_file(s, kernel_path)
                          : plain_name(s->im->name) &&
                                snprintf(p, sizeof(p), "%.*s/%s/%s.elf", dl, kernel_path, img,
                                         s->im->name) > 0 && try_file(s, p))
            return 1;
    }
    if (board[0] && plain_name(board)) {
        snprintf(p, sizeof(p), "build/%s", board);
        if (by_name(s, p, img))
            return 1;
        if (!where[0])
            snprintf(where, wn, "%s", p);
    }
    return 0;
}

// by_cache: the build-id caches every machine has by default, as perf and gdb read them:
// perf's ~/.debug and the debug-file-directory /usr/lib/debug (Debian's -dbgsym packages).
static int by_cache(struct search *s)
{
    char p[PATH_MAX];
    const char *home = getenv("HOME");
    if (home && home[0] && snprintf(p, sizeof(p), "%s/.debug", home) < (int)sizeof(p) &&
        by_id(s, p))
        return 1;
    return by_id(s, "/usr/lib/debug");
}

// by_debuginfod: the debuginfod servers of DEBUGINFOD_URLS (none set: not asked), through
// elfutils' libdebuginfod (its client cache, DEBUGINFOD_CACHE_PATH, DEBUGINFOD_TIMEOUT; the
// debuginfo first, then the executable). The library is opened when first needed, as libdwfl
// opens it itself: so every tool linking this file needs no other link flag, and a machine
// without it still names frames from the places above. Sets *asked when a server was asked.
static int by_debuginfod(struct search *s, int *asked)
{
    static void *lib;
    static debuginfod_client *client;
    static int failed;
    static debuginfod_client *(*begin)(void);
    static int (*find[2])(debuginfod_client *, const unsigned char *, int, char **);
    const char *urls = getenv("DEBUGINFOD_URLS");
    if (!s->im->id_len || !urls || !urls[strspn(urls, " ")] || failed)
        return 0;
    if (!client) {
        lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
        if (lib) {
            *(void **)&begin = dlsym(lib, "debuginfod_begin");
            *(void **)&find[0] = dlsym(lib, "debuginfod_find_debuginfo");
            *(void **)&find[1] = dlsym(lib, "debuginfod_find_executable");
        }
        if (!lib || !begin || !find[0] || !find[1] || !(client = begin())) {
            fprintf(stderr, "%s: DEBUGINFOD_URLS is set but libdebuginfod cannot be used (%s): "
                    "install libdebuginfod1 (scripts/setup.sh)\n", tool,
                    lib ? "no client" : dlerror());
            failed = 1;
            return 0;
        }
    }
    *asked = 1;
    for (int k = 0; k < 2; k++) {
        char *path = NULL;
        int fd = find[k](client, s->im->id, (int)s->im->id_len, &path);
        if (fd < 0)
            continue;
        close(fd);
        int ok = path && try_file(s, path);
        free(path);
        if (ok)
            return 1;
    }
    return 0;
}

// resolve: finds im's file and adds it to elfsym, or says why there is none.
static void resolve(struct image *im)
{
    struct search s;
    char img[KEV_IMAGE_NAME_MAX], where[PATH_MAX], hex[2 * KEV_IMAGE_ID_MAX + 1];
    memset(&s, 0, sizeof(s));
    s.im = im;
    im->done = 1;
    image_base(img, sizeof(img));
    hex_of(im->id, im->id_len, hex, sizeof(hex));
    for (unsigned k = 0; k < ngiven; k++) {
        struct given *g = &given[k];
        int same = im->id_len && (unsigned)g->id_len == im->id_len &&
                   !memcmp(g->id, im->id, im->id_len);
        if (!same && !im->id_len && g->kernel == im->kernel && !strcmp(g->mod, im->mod))
            same = 1;   // no id to check it by: the file given under its name
        if (same) {
            if (!g->added)
                g->added = 1 + elfsym_add_as(tool, g->path, im->mod, im->kernel);
            im->path = g->path;
            im->given = 1;
            return;
        }
        if (g->kernel == im->kernel && !strcmp(g->mod, im->mod) && !s.refused[0]) {
            snprintf(s.refused, sizeof(s.refused), "%s", g->path);
            memcpy(s.refused_id, g->id, (size_t)g->id_len);
            s.refused_len = g->id_len;
        }
    }
    int found = by_build(&s, img, where, sizeof(where)), asked = 0;
    for (unsigned k = 0; k < ndirs && !found; k++)
        found = by_id(&s, dirs[k]) || by_name(&s, dirs[k], img);
    if (!found)
        found = by_cache(&s) || by_debuginfod(&s, &asked);
    if (found) {
        elfsym_add_as(tool, s.found, im->mod, im->kernel);
        im->path = strdup(s.found);
        if (!im->id_len)
            fprintf(stderr, "%s: the capture gives %s (pid %u) no build id: %s used unchecked\n",
                    tool, im->mod, im->pid, s.found);
        return;
    }
    if (s.refused[0]) {
        char rhex[2 * KEV_IMAGE_ID_MAX + 1];
        hex_of(s.refused_id, (unsigned)s.refused_len, rhex, sizeof(rhex));
        fprintf(stderr, "%s: %s is not the %s that ran (pid %u): its build id is %s, the "
                "capture's %s (rebuilt since?); refused: its addresses are left raw\n", tool,
                s.refused, im->mod, im->pid, s.refused_len ? rhex : "none", hex);
    } else {
        fprintf(stderr, "%s: no ELF file of %s (pid %u, build id %s) in %s%s, --symbols, "
                "~/.debug, /usr/lib/debug or %s: its addresses are left raw\n", tool, im->mod,
                im->pid, im->id_len ? hex : "none",
                where[0] ? where : "the capture's build directory",
                where[0] ? " (the capture's build)" : "",
                asked ? "the debuginfod servers of DEBUGINFOD_URLS" :
                        "debuginfod (DEBUGINFOD_URLS is not set)");
    }
}

// Before every lookup (elfsym's hook): the images not looked up yet; with none in the
// capture, the files given, unchecked.
static void read_images(void);
static void resolve_all(void)
{
    if (no_symbols)
        return;
    read_images();
    for (unsigned k = 0; k < nimages; k++)
        if (!images[k].done)
            resolve(&images[k]);
    if (nimages || unchecked_done)
        return;
    unchecked_done = 1;
    for (unsigned k = 0; k < ngiven; k++)
        if (!given[k].added)
            given[k].added = 1 + elfsym_add_as(tool, given[k].path, given[k].mod, given[k].kernel);
    if (ngiven)
        fprintf(stderr, "%s: the capture records no build ids (SYSTEM IMAGE): the ELF files "
                "given are used unchecked\n", tool);
}

static void hook(void)
{
    if (!hooked) {
        elfsym_on_lookup(resolve_all);
        hooked = 1;
    }
}

// ---- the interface --------------------------------------------------------------------------

// take_image: one IMAGE event of the capture (the decoder's callback).
static int take_image(void *user, struct kev_reader *r, const struct kev_event *e)
{
    (void)user;
    struct kev_image im;
    if (kev_image_decode(r, e, &im) != 0)
        return 0;
    if (!board[0] && r->kr_board[0])
        snprintf(board, sizeof(board), "%s", r->kr_board);
    int kernel = im.pid == 0;
    if (kernel && !kernel_path[0])
        snprintf(kernel_path, sizeof(kernel_path), "%s", im.name);
    for (unsigned k = 0; k < nimages; k++)  // one entry an image (a program may run again)
        if (images[k].kernel == kernel && images[k].id_len == im.id_len &&
            !memcmp(images[k].id, im.id, im.id_len) && (kernel || !strcmp(images[k].name, im.name)))
            return 0;
    if (nimages == MAX_IMAGES) {
        if (!images_dropped++)
            fprintf(stderr, "%s: more than %d images in the capture: the others' addresses "
                    "are left raw\n", tool, MAX_IMAGES);
        return 0;
    }
    struct image *m = &images[nimages++];
    memset(m, 0, sizeof(*m));
    m->pid = im.pid;
    m->kernel = kernel;
    memcpy(m->id, im.id, im.id_len);
    m->id_len = im.id_len;
    snprintf(m->name, sizeof(m->name), "%s", kernel ? "kernel" : im.name);
    if (kernel)
        snprintf(m->mod, sizeof(m->mod), "kernel");
    else
        kev_text_safe(m->mod, sizeof(m->mod), (const uint8_t *)im.name, strlen(im.name));
    return 0;
}

// read_images: the capture's IMAGE events, in file order (the kernel's comes first; a
// damaged file gives those before the damage).
static void read_images(void)
{
    static struct kev_reader r;
    if (!trace_data)
        return;
    const void *d = trace_data;
    trace_data = NULL;
    if (kev_open(&r, d, trace_len) != 0)
        return;
    r.kr_file_order = 1;
    kev_on_event(&r, KEV_C_SYSTEM, KEV_SYS_IMAGE, take_image);
    kev_decode(&r);
}

void syms_trace(const char *t, const void *data, size_t len)
{
    tool = t;
    trace_data = data;
    trace_len = len;
    serial++;
    hook();
}

const struct tool_opt syms_opts[] = {
    { SYMS_OPT_SYMBOLS, 0, "symbols", "DIR",
      "look ELF files up by build id in DIR too (perf's build-id cache,\n"
      "a debug-file-directory, debuginfod's cache, or ELF files)", NULL },
    { SYMS_OPT_ELF, 0, "elf", "FILE",
      "a program's ELF file: used when its build id is the capture's\n"
      "(files are found by the ids the capture records, in the build\n"
      "directory it came from)", NULL },
    { SYMS_OPT_KERNEL, 0, "kernel", "FILE", "the kernel image's ELF file, likewise", NULL },
    { SYMS_OPT_NONE, 0, "no-symbols", NULL, "leave code addresses raw", NULL },
    { 0, 0, NULL, NULL, NULL, NULL },
};

int syms_take(const char *t, int id, const char *v)
{
    tool = t;
    hook();
    if (id == SYMS_OPT_NONE) {
        no_symbols = 1;
        return 1;
    }
    if (id == SYMS_OPT_SYMBOLS) {
        struct stat st;
        if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "%s: --symbols %s: not a directory\n", t, v);
            return -1;
        }
        if (ndirs == MAX_DIRS) {
            fprintf(stderr, "%s: more than %d --symbols directories\n", t, MAX_DIRS);
            return -1;
        }
        dirs[ndirs++] = v;
        return 1;
    }
    if (id != SYMS_OPT_ELF && id != SYMS_OPT_KERNEL)
        return 0;
    int kernel = id == SYMS_OPT_KERNEL;
    if (ngiven == MAX_GIVEN) {
        fprintf(stderr, "%s: more than %d ELF files\n", t, MAX_GIVEN);
        return -1;
    }
    struct given *g = &given[ngiven];
    memset(g, 0, sizeof(*g));
    g->id_len = elfsym_build_id(v, g->id, sizeof(g->id));
    if (g->id_len < 0) {
        fprintf(stderr, "%s: %s: not a readable ELF file\n", t, v);
        return -1;
    }
    g->path = v;
    g->kernel = kernel;
    if (kernel) {
        snprintf(g->mod, sizeof(g->mod), "kernel");
    } else {
        const char *b = strrchr(v, '/');
        snprintf(g->mod, sizeof(g->mod), "%s", b ? b + 1 : v);
        size_t l = strlen(g->mod);
        if (l > 4 && !strcmp(g->mod + l - 4, ".elf"))
            g->mod[l - 4] = 0;
    }
    ngiven++;
    return 1;
}

int syms_option(const char *t, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    const struct tool_opt *o = syms_opts;
    while (o->id && !(a[0] == '-' && a[1] == '-' && !strcmp(a + 2, o->lng)))
        o++;
    if (!o->id)
        return 0;
    if (o->arg && *i + 1 >= argc) {
        fprintf(stderr, "%s: %s needs an argument\n", t, a);
        return -1;
    }
    return syms_take(t, o->id, o->arg ? argv[++*i] : NULL);
}

void syms_usage(FILE *f)
{
    for (const struct tool_opt *o = syms_opts; o->id; o++)
        tool_help_line(f, o);
}

int syms_active(void)
{
    return !no_symbols;
}

unsigned syms_programs(void (*fn)(void *arg, const char *mod, const char *path, int given),
                       void *arg)
{
    resolve_all();
    unsigned n = 0;
    for (unsigned k = 0; k < nimages && !no_symbols; k++)
        if (!images[k].kernel) {
            fn(arg, images[k].mod, images[k].path, images[k].given);
            n++;
        }
    return n;
}

const char *syms_kernel_file(void)
{
    resolve_all();
    for (unsigned k = 0; k < nimages && !no_symbols; k++)
        if (images[k].kernel)
            return images[k].path;
    return NULL;
}

unsigned syms_files(void)
{
    resolve_all();
    return no_symbols ? 0 : elfsym_count();
}

int syms_pc(uint64_t pc, int caller, char *out, size_t n, char *fn, size_t fn_n)
{
    if (fn && fn_n)
        fn[0] = 0;
    if (!no_symbols && elfsym_frame(pc, caller, 0, out, n, fn, fn_n) == 0)
        return 1;
    snprintf(out, n, "0x%llx", (unsigned long long)pc);
    return 0;
}

void syms_function(uint64_t pc, char *fn, size_t n)
{
    char at[512];
    if (!syms_pc(pc, 0, at, sizeof(at), fn, n) || !fn[0])
        snprintf(fn, n, "0x%llx", (unsigned long long)pc);
}

void syms_stack(const uint64_t *pcs, unsigned depth, const char *sep, char *out, size_t n)
{
    size_t len = 0;
    if (n)
        out[0] = 0;
    for (unsigned i = 0; i < depth && len + 1 < n; i++) {
        char f[512];
        syms_pc(pcs[i], i > 0, f, sizeof(f), NULL, 0);
        int k = snprintf(out + len, n - len, "%s%s", i ? sep : "", f);
        if (k < 0)
            break;
        len += (size_t)k < n - len ? (size_t)k : n - len - 1;
    }
}

void syms_end(void)
{
    elfsym_on_lookup(NULL);
    hooked = 0;
    elfsym_end();
    nimages = ngiven = ndirs = 0;
    images_dropped = 0;
    kernel_path[0] = board[0] = 0;
    no_symbols = unchecked_done = 0;
    trace_data = NULL;
    serial++;
}

unsigned syms_serial(void)
{
    return serial;
}
