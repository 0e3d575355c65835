// SPDX-License-Identifier: MIT
// kevsql over many traces on one machine (kevsql.h): the directories expanded to their .kev
// files, the query run on each trace by -j worker processes (each takes the next trace not yet
// taken, so a big trace does not hold the others back), every row sent back through a pipe
// with its values' types, and put by the parent in one in-memory SQLite table "result": the
// trace's path, board, build and boot date, then the query's columns. Without --merge that table
// is printed (in the traces' order, each trace's rows in its query's order); with it the merge
// query runs over it. A trace that cannot be read or whose query fails is said on stderr, with
// the others' rows still given; the exit status is then 1.
// Pipe records: 'H' ncols, names (a trace's columns); 'M' board, build, boot date; 'R' row
// values (type byte, then an i64, a double, or a length and bytes); 'E' an error message; 'D'
// the trace is done. Each record starts with its trace's index.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kevsql.h"

#define META_COLS 4
static const char *const meta_names[META_COLS] = { "trace", "board", "build", "boot_date" };

// ---- the traces ---------------------------------------------------------------------------------

struct list {
    char **v;
    int n, cap;
};

static int list_add(struct list *l, const char *s)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        char **v = realloc(l->v, (size_t)cap * sizeof(*v));
        if (!v)
            return -1;
        l->v = v, l->cap = cap;
    }
    return (l->v[l->n++] = strdup(s)) ? 0 : -1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

// A directory's .kev files (sorted), or the file itself.
static int expand(struct list *l, const char *path)
{
    struct stat sb;
    if (stat(path, &sb) || !S_ISDIR(sb.st_mode))
        return list_add(l, path);
    DIR *d = opendir(path);
    if (!d)
        return list_add(l, path); // said when it is opened
    int first = l->n;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 4 && !strcmp(e->d_name + n - 4, ".kev")) {
            char *p;
            if (asprintf(&p, "%s/%s", path, e->d_name) < 0 || list_add(l, p)) {
                closedir(d);
                return -1;
            }
            free(p);
        }
    }
    closedir(d);
    qsort(l->v + first, (size_t)(l->n - first), sizeof(char *), cmp_str);
    return 0;
}

// ---- the pipe's records ---------------------------------------------------------------------------

struct out {
    int fd;
    char *buf;
    size_t len, cap;
};

static void put(struct out *o, const void *p, size_t n)
{
    if (o->len + n > o->cap) {
        size_t cap = (o->cap ? o->cap : 1 << 16);
        while (cap < o->len + n)
            cap *= 2;
        char *b = realloc(o->buf, cap);
        if (!b)
            _exit(3);
        o->buf = b, o->cap = cap;
    }
    memcpy(o->buf + o->len, p, n);
    o->len += n;
}

static void flush_out(struct out *o)
{
    for (size_t k = 0; k < o->len;) {
        ssize_t w = write(o->fd, o->buf + k, o->len - k);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(3);
        k += (size_t)w;
    }
    o->len = 0;
}

static void put_u32(struct out *o, uint32_t v) { put(o, &v, 4); }
static void put_str(struct out *o, const char *s, size_t n)
{
    put_u32(o, (uint32_t)n);
    put(o, s, n);
}
static void put_rec(struct out *o, char kind, uint32_t trace)
{
    put(o, &kind, 1);
    put_u32(o, trace);
}

// A metadata string of the open trace (NULL: empty).
static void put_meta(struct out *o, sqlite3 *db, const char *name)
{
    sqlite3_stmt *st;
    const char *s = NULL;
    if (sqlite3_prepare_v2(db, "SELECT str_value FROM metadata WHERE name = ?1", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW)
            s = (const char *)sqlite3_column_text(st, 0);
    }
    put_str(o, s ? s : "", s ? strlen(s) : 0);
    sqlite3_finalize(st);
}

static void put_error(struct out *o, uint32_t trace, const char *msg)
{
    put_rec(o, 'E', trace);
    put_str(o, msg, strlen(msg));
}

// One trace, in a worker: its metadata, its columns, its rows.
static void run_one(struct out *o, uint32_t idx, const char *path, const struct ksq_opts *q)
{
    sqlite3 *db;
    sqlite3_stmt *st = NULL;
    char *msg = NULL;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        put_error(o, idx, "cannot open SQLite");
        return;
    }
    if (sqlite3_prepare_v2(db, "SELECT kev_open(?1, ?2)", -1, &st, NULL) != SQLITE_OK ||
        sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC) ||
        sqlite3_bind_text(st, 2, q->lenient ? "lenient" : "strict", -1, SQLITE_STATIC) ||
        sqlite3_step(st) != SQLITE_ROW) {
        put_error(o, idx, sqlite3_errmsg(db));
        goto out;
    }
    sqlite3_finalize(st);
    st = NULL;
    put_rec(o, 'M', idx);
    put_meta(o, db, "board");
    put_meta(o, db, "build");
    put_meta(o, db, "boot_date");
    if (sqlite3_prepare_v2(db, q->query, -1, &st, NULL) != SQLITE_OK) {
        put_error(o, idx, sqlite3_errmsg(db));
        goto out;
    }
    int ncols = sqlite3_column_count(st);
    put_rec(o, 'H', idx);
    put_u32(o, (uint32_t)ncols);
    for (int i = 0; i < ncols; i++)
        put_str(o, sqlite3_column_name(st, i), strlen(sqlite3_column_name(st, i)));
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        put_rec(o, 'R', idx);
        for (int i = 0; i < ncols; i++) {
            char ty = (char)sqlite3_column_type(st, i);
            put(o, &ty, 1);
            if (ty == SQLITE_INTEGER) {
                int64_t v = sqlite3_column_int64(st, i);
                put(o, &v, 8);
            } else if (ty == SQLITE_FLOAT) {
                double v = sqlite3_column_double(st, i);
                put(o, &v, 8);
            } else if (ty != SQLITE_NULL) {
                put_str(o, (const char *)sqlite3_column_blob(st, i),
                        (size_t)sqlite3_column_bytes(st, i));
            }
        }
        if (o->len > (1u << 20))
            flush_out(o);
    }
    if (rc != SQLITE_DONE)
        put_error(o, idx, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    st = NULL;
    if (q->lenient && sqlite3_prepare_v2(db, "SELECT kev_damage()", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL &&
        asprintf(&msg, "damaged: %s; its rows cover the events before it",
                 sqlite3_column_text(st, 0)) > 0)
        put_error(o, idx, msg);
out:
    free(msg);
    sqlite3_finalize(st);
    sqlite3_close(db);
    put_rec(o, 'D', idx);
    flush_out(o);
}

// ---- the parent: reading the records into the table "result" --------------------------------------

struct in {
    int fd;
    char *buf;
    size_t len, cap;
    int eof;
};

struct coll {
    sqlite3 *db;
    int ncols;                 // the query's columns (the first trace's header sets them)
    char **names;
    sqlite3_stmt *ins;
    char **meta;               // per trace: board, build, boot date
    const char *const *paths;
    long seq;
    int errors;
    long rows;
};

static int get(const char **p, const char *end, void *out, size_t n)
{
    if ((size_t)(end - *p) < n)
        return -1;
    memcpy(out, *p, n);
    *p += n;
    return 0;
}

static int get_str(const char **p, const char *end, const char **s, uint32_t *n)
{
    if (get(p, end, n, 4) || (size_t)(end - *p) < *n)
        return -1;
    *s = *p;
    *p += *n;
    return 0;
}

static int make_table(struct coll *c, const char *p, const char *end, uint32_t ncols)
{
    sqlite3_str *s = sqlite3_str_new(c->db);
    sqlite3_str_appendall(s, "CREATE TABLE result(_idx INTEGER, _seq INTEGER");
    for (int i = 0; i < META_COLS; i++)
        sqlite3_str_appendf(s, ", \"%w\"", meta_names[i]);
    c->names = calloc(ncols + 1, sizeof(char *));
    for (uint32_t i = 0; i < ncols; i++) {
        const char *name;
        uint32_t n;
        if (get_str(&p, end, &name, &n))
            return -1;
        c->names[i] = strndup(name, n);
        int dup = 0; // a query column named like a metadata one gets a suffix
        for (int k = 0; k < META_COLS; k++)
            dup |= !strcmp(c->names[i], meta_names[k]);
        sqlite3_str_appendf(s, ", \"%w%s\"", c->names[i], dup ? "_" : "");
    }
    sqlite3_str_appendall(s, ")");
    char *sql = sqlite3_str_finish(s);
    int rc = sqlite3_exec(c->db, sql, NULL, NULL, NULL);
    sqlite3_free(sql);
    if (rc != SQLITE_OK)
        return -1;
    s = sqlite3_str_new(c->db);
    sqlite3_str_appendall(s, "INSERT INTO result VALUES (?, ?, ?, ?, ?, ?");
    for (uint32_t i = 0; i < ncols; i++)
        sqlite3_str_appendall(s, ", ?");
    sqlite3_str_appendall(s, ")");
    sql = sqlite3_str_finish(s);
    rc = sqlite3_prepare_v2(c->db, sql, -1, &c->ins, NULL);
    sqlite3_free(sql);
    c->ncols = (int)ncols;
    return rc == SQLITE_OK ? 0 : -1;
}

// What taking one record from the pipe gives: applied, not whole in the buffer yet (it waits
// for more bytes), or a record that breaks the protocol or cannot be stored.
enum rec { REC_TAKEN = 0, REC_PARTIAL = 1, REC_BAD = -1 };

// 'M': trace idx's board, build and boot date.
static enum rec take_meta(struct coll *c, uint32_t idx, const char **p, const char *end)
{
    const char *s[3];
    uint32_t n[3];
    for (int i = 0; i < 3; i++)
        if (get_str(p, end, &s[i], &n[i]))
            return REC_PARTIAL;
    for (int i = 0; i < 3; i++)
        c->meta[3 * idx + (uint32_t)i] = strndup(s[i], n[i]);
    return REC_TAKEN;
}

// 'H': trace idx's columns; the first trace's make the table, the others' must agree in number.
static enum rec take_header(struct coll *c, uint32_t idx, const char **p, const char *end)
{
    uint32_t ncols;
    if (get(p, end, &ncols, 4))
        return REC_PARTIAL;
    const char *q = *p;
    for (uint32_t i = 0; i < ncols; i++) {
        const char *s;
        uint32_t n;
        if (get_str(&q, end, &s, &n))
            return REC_PARTIAL;
    }
    if (!c->ins && make_table(c, *p, end, ncols))
        return REC_BAD;
    if ((int)ncols != c->ncols) {
        fprintf(stderr, "kevsql: %s: the query gave %u columns, %d for the traces "
                "before\n", c->paths[idx], ncols, c->ncols);
        return REC_BAD;
    }
    *p = q;
    return REC_TAKEN;
}

// One value of a row (its type byte, then its bytes) bound to the insert's column col.
static enum rec bind_value(struct coll *c, int col, const char **p, const char *end)
{
    char ty;
    if (get(p, end, &ty, 1))
        return REC_PARTIAL;
    if (ty == SQLITE_INTEGER) {
        int64_t v = 0;
        int partial = get(p, end, &v, 8);
        sqlite3_bind_int64(c->ins, col, v);
        return partial ? REC_PARTIAL : REC_TAKEN;
    }
    if (ty == SQLITE_FLOAT) {
        double v = 0;
        int partial = get(p, end, &v, 8);
        sqlite3_bind_double(c->ins, col, v);
        return partial ? REC_PARTIAL : REC_TAKEN;
    }
    if (ty == SQLITE_NULL) {
        sqlite3_bind_null(c->ins, col);
        return REC_TAKEN;
    }
    const char *s;
    uint32_t n;
    if (get_str(p, end, &s, &n))
        return REC_PARTIAL;
    if (ty == SQLITE_BLOB)
        sqlite3_bind_blob(c->ins, col, s, (int)n, SQLITE_TRANSIENT);
    else
        sqlite3_bind_text(c->ins, col, s, (int)n, SQLITE_TRANSIENT);
    return REC_TAKEN;
}

// 'R': a row of trace idx, inserted after its index, its place in the order and its trace's
// path and metadata.
static enum rec take_row(struct coll *c, uint32_t idx, const char **p, const char *end)
{
    if (!c->ins)
        return REC_BAD;
    sqlite3_reset(c->ins);
    sqlite3_bind_int64(c->ins, 1, idx);
    sqlite3_bind_int64(c->ins, 2, c->seq++);
    sqlite3_bind_text(c->ins, 3, c->paths[idx], -1, SQLITE_STATIC);
    for (int i = 0; i < 3; i++) {
        const char *m = c->meta[3 * idx + (uint32_t)i];
        if (m && *m)
            sqlite3_bind_text(c->ins, 4 + i, m, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(c->ins, 4 + i);
    }
    for (int i = 0; i < c->ncols; i++)
        if (bind_value(c, 7 + i, p, end) == REC_PARTIAL)
            return REC_PARTIAL;
    if (sqlite3_step(c->ins) != SQLITE_DONE)
        return REC_BAD;
    c->rows++;
    return REC_TAKEN;
}

// 'E': trace idx's error, said on stderr and counted.
static enum rec take_error(struct coll *c, uint32_t idx, const char **p, const char *end)
{
    const char *s;
    uint32_t n;
    if (get_str(p, end, &s, &n))
        return REC_PARTIAL;
    fprintf(stderr, "kevsql: %s: %.*s\n", c->paths[idx], (int)n, s);
    c->errors++;
    return REC_TAKEN;
}

// Records complete in in->buf are applied; what is left is the start of the next one. The
// length of a record is known only by reading it: a record that does not parse whole yet waits.
static int consume(struct coll *c, struct in *in)
{
    const char *p = in->buf, *end = in->buf + in->len, *done = p;
    for (;; done = p) {
        char kind;
        uint32_t idx;
        if (get(&p, end, &kind, 1) || get(&p, end, &idx, 4))
            break;
        enum rec r;
        switch (kind) {
        case 'M': r = take_meta(c, idx, &p, end); break;
        case 'H': r = take_header(c, idx, &p, end); break;
        case 'R': r = take_row(c, idx, &p, end); break;
        case 'E': r = take_error(c, idx, &p, end); break;
        case 'D': r = REC_TAKEN; break;    // the trace is done (nothing to do: the rows are in)
        default: r = REC_BAD; break;
        }
        if (r == REC_BAD)
            return -1;
        if (r == REC_PARTIAL)
            break;
    }
    size_t used = (size_t)(done - in->buf); // the next record's start stays
    memmove(in->buf, done, in->len - used);
    in->len -= used;
    return 0;
}

static int read_in(struct coll *c, struct in *in)
{
    if (in->len + 65536 > in->cap) {
        size_t cap = in->cap ? 2 * in->cap : 1 << 17;
        char *b = realloc(in->buf, cap);
        if (!b)
            return -1;
        in->buf = b, in->cap = cap;
    }
    ssize_t n = read(in->fd, in->buf + in->len, in->cap - in->len);
    if (n < 0 && errno == EINTR)
        return 0;
    if (n <= 0) {
        in->eof = 1;
        return 0;
    }
    in->len += (size_t)n;
    return consume(c, in);
}

// The workers: jobs processes, each taking the next trace of l (the shared *next) and sending
// its rows up its pipe (in[k].fd; pid[k]). 0, or 1 after saying why.
static int start_workers(int jobs, struct in *in, pid_t *pid, uint32_t *next,
                         const struct list *l, const struct ksq_opts *q)
{
    for (int k = 0; k < jobs; k++) {
        int fd[2];
        if (pipe(fd)) {
            fprintf(stderr, "kevsql: %s\n", strerror(errno));
            return 1;
        }
        pid[k] = fork();
        if (pid[k] < 0) {
            fprintf(stderr, "kevsql: %s\n", strerror(errno));
            return 1;
        }
        if (pid[k] == 0) {
            close(fd[0]);
            for (int j = 0; j < k; j++)
                close(in[j].fd);
            struct out o = { .fd = fd[1] };
            uint32_t i;
            while ((i = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED)) < (uint32_t)l->n)
                run_one(&o, i, l->v[i], q);
            _exit(0);
        }
        close(fd[1]);
        in[k].fd = fd[0];
    }
    return 0;
}

// What the workers send, read into c as it comes until every pipe has ended. 0, or 1 when a
// read or the collection failed.
static int collect(struct coll *c, struct in *in, int jobs)
{
    struct pollfd *pf = calloc((size_t)jobs, sizeof(*pf));
    int open_pipes = jobs, bad = !pf;
    while (!bad && open_pipes > 0) {
        int n = 0;
        for (int k = 0; k < jobs; k++)
            if (!in[k].eof)
                pf[n].fd = in[k].fd, pf[n].events = POLLIN, n++;
        if (poll(pf, (nfds_t)n, -1) < 0) {
            if (errno == EINTR)
                continue;
            bad = 1;
            break;
        }
        for (int j = 0; j < n && !bad; j++) {
            if (!(pf[j].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            for (int k = 0; k < jobs; k++)
                if (in[k].fd == pf[j].fd && !in[k].eof) {
                    if (read_in(c, &in[k]))
                        bad = 1;
                    if (in[k].eof)
                        open_pipes--;
                }
        }
    }
    free(pf);
    return bad;
}

// The collected rows printed: the --merge query's, or every row with its trace's columns
// first. Returns how many rows, or -1.
static long print_result(struct coll *c, const struct ksq_opts *q)
{
    struct ksq_opts o = *q;
    if (!c->ncols) // no trace gave its columns (every one failed): nothing to print
        return 0;
    if (q->merge)
        return ksq_print(c->db, q->merge, &o, "kevsql");
    sqlite3_str *s = sqlite3_str_new(c->db);
    sqlite3_str_appendall(s, "SELECT trace, board, build, boot_date");
    for (int i = 0; i < c->ncols; i++) {
        int dup = 0;
        for (int k = 0; k < META_COLS; k++)
            dup |= !strcmp(c->names[i], meta_names[k]);
        sqlite3_str_appendf(s, ", \"%w%s\"", c->names[i], dup ? "_" : "");
    }
    sqlite3_str_appendall(s, " FROM result ORDER BY _idx, _seq");
    char *sql = sqlite3_str_finish(s);
    long rows = ksq_print(c->db, sql, &o, "kevsql");
    sqlite3_free(sql);
    return rows;
}

int ksq_fleet(const struct ksq_opts *q)
{
    struct list l = { 0 };
    for (int i = 0; i < q->ntraces; i++)
        if (expand(&l, q->traces[i])) {
            fprintf(stderr, "kevsql: out of memory\n");
            return 1;
        }
    if (!l.n) {
        fprintf(stderr, "kevsql: no .kev file in %s\n", q->traces[0]);
        return 1;
    }
    int jobs = q->jobs ? q->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (jobs < 1)
        jobs = 1;
    if (jobs > l.n)
        jobs = l.n;
    // the next trace to take, shared by the workers
    uint32_t *next = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (next == MAP_FAILED) {
        fprintf(stderr, "kevsql: %s\n", strerror(errno));
        return 1;
    }
    *next = 0;
    fflush(NULL);
    struct in *in = calloc((size_t)jobs, sizeof(*in));
    pid_t *pid = calloc((size_t)jobs, sizeof(*pid));
    if (!in || !pid)
        return 1;
    if (start_workers(jobs, in, pid, next, &l, q))
        return 1;
    struct coll c = { 0 };
    c.paths = (const char *const *)l.v;
    c.meta = calloc(3 * (size_t)l.n, sizeof(char *));
    int bad = !c.meta || sqlite3_open(":memory:", &c.db) != SQLITE_OK;
    if (!bad)
        bad = collect(&c, in, jobs);
    int status = 0;
    for (int k = 0; k < jobs; k++) {
        int st;
        if (bad)
            kill(pid[k], SIGTERM);
        waitpid(pid[k], &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st))
            bad = 1;
        close(in[k].fd);
        free(in[k].buf);
    }
    if (bad) {
        fprintf(stderr, "kevsql: a worker failed%s%s\n", c.db ? ": " : "",
                c.db ? sqlite3_errmsg(c.db) : "");
        return 1;
    }
    sqlite3_finalize(c.ins);
    long rows = print_result(&c, q);
    if (rows < 0 || c.errors)
        status = 1;
    else if (q->check && rows > 0)
        status = 1;
    sqlite3_close(c.db);
    for (int i = 0; i < 3 * l.n; i++)
        free(c.meta[i]);
    for (int i = 0; i < c.ncols; i++)
        free(c.names[i]);
    for (int i = 0; i < l.n; i++)
        free(l.v[i]);
    free(c.meta), free(c.names), free(l.v), free(in), free(pid);
    munmap(next, 4096);
    return status;
}
