// SPDX-License-Identifier: MIT
// The file a live capture writes (kev_live.h, kev_live_file_open): a consumer of the live
// reader that writes each unit as it arrives and flushes it, so that the file on disk is
// always a whole number of units: a tool may read it while it grows. Each segment (a board
// reset starts one) gets a file of its own, up to KEV_LIVE_MAX_FILES: past them, each new
// segment replaces the last file (a board that resets again and again fills no disk; the
// newest segment is kept), said once.
#include <kevhost/kev_live.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct kev_live_file {
    char tool[32];
    char path[4096];
    FILE *f;
    char name[4096];       // the open file's name
    int failed;
    int said_bound;
};

const char *kev_live_file_name(const char *path, unsigned seg, char *buf, size_t n)
{
    if (seg <= 1) {
        snprintf(buf, n, "%s", path);
        return buf;
    }
    size_t len = strlen(path);
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        dot = path + len;
    snprintf(buf, n, "%.*s-%u%s", (int)(dot - path), path, seg, dot);
    return buf;
}

static int file_close(struct kev_live_file *w)
{
    if (!w->f)
        return 0;
    int bad = fclose(w->f) != 0;
    w->f = NULL;
    if (bad && !w->failed) {
        fprintf(stderr, "%s: writing %s failed: %s\n", w->tool, w->name, strerror(errno));
        w->failed = 1;
    }
    return bad ? -1 : 0;
}

static void on_begin(void *user, struct kev_reader *r, unsigned seg)
{
    struct kev_live_file *w = user;
    (void)r;
    if (seg <= 1 && w->f)
        return;            // the file opened at the start
    file_close(w);
    if (seg > KEV_LIVE_MAX_FILES && !w->said_bound) {
        w->said_bound = 1;
        fprintf(stderr, "%s: segment %u: more than %u board resets; each segment from here "
                "replaces the last file, %s (at most %u files)\n", w->tool, seg,
                KEV_LIVE_MAX_FILES - 1, kev_live_file_name(w->path, KEV_LIVE_MAX_FILES, w->name,
                                                           sizeof(w->name)), KEV_LIVE_MAX_FILES);
    }
    kev_live_file_name(w->path, seg < KEV_LIVE_MAX_FILES ? seg : KEV_LIVE_MAX_FILES, w->name,
                       sizeof(w->name));
    w->f = fopen(w->name, "wb");
    if (!w->f) {
        fprintf(stderr, "%s: cannot create %s: %s\n", w->tool, w->name, strerror(errno));
        w->failed = 1;
    }
}

static void on_unit(void *user, const uint8_t *p, size_t n, enum kev_live_unit kind)
{
    struct kev_live_file *w = user;
    (void)kind;
    if (!w->f)
        return;
    if (fwrite(p, 1, n, w->f) != n || fflush(w->f) != 0) {
        if (!w->failed)
            fprintf(stderr, "%s: writing %s failed: %s\n", w->tool, w->name, strerror(errno));
        w->failed = 1;
    }
}

struct kev_live_file *kev_live_file_open(const char *tool, const char *path,
                                         struct kev_live_consumer *c)
{
    struct kev_live_file *w = calloc(1, sizeof(*w));
    if (!w) {
        fprintf(stderr, "%s: out of memory\n", tool);
        return NULL;
    }
    snprintf(w->tool, sizeof(w->tool), "%s", tool);
    snprintf(w->path, sizeof(w->path), "%s", path);
    snprintf(w->name, sizeof(w->name), "%s", path);
    // Created at once, so that a bad path is said before anything is read.
    w->f = fopen(path, "wb");
    if (!w->f) {
        fprintf(stderr, "%s: cannot create %s: %s\n", tool, path, strerror(errno));
        free(w);
        return NULL;
    }
    *c = (struct kev_live_consumer){ .user = w, .begin = on_begin, .unit = on_unit };
    return w;
}

int kev_live_file_close(struct kev_live_file *w)
{
    if (!w)
        return 0;
    int rc = file_close(w) || w->failed ? -1 : 0;
    free(w);
    return rc;
}
