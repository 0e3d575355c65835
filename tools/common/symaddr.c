// SPDX-License-Identifier: MIT
// The symbolic addresses of D's func( )/sym( ), mod( ), ufunc( )/usym( ), umod( ), uaddr( )
// and printf's %a/%A, named on the host. The board prints each as a token
// "<kind>[@<merge>]`0x<address>" (trace/d/csymaddr.c), and this file writes what libdtrace
// prints for it (dt_consume.c's dt_print_sym, dt_print_mod, dt_print_usym, dt_print_umod
// and dtrace_uaddr2str): sym "kernel`f", mod "kernel", usym "prog`f", umod "prog", uaddr
// "prog`f+0x12", addr "kernel`f+0x12"; an address no ELF file holds stays "0x...". A token
// keeps its column: the spaces after it grow or shrink by what the name adds.
//
// Grouping: DTrace's kernel aggregates by address and libdtrace merges the rows whose key is
// one function (sym, usym) or one module (mod, umod) when it snapshots the aggregation
// (dt_aggregate_sym/usym/mod/umod); uaddr keeps each address. The board has no symbols, so
// its printa( ) rows are by address and this file merges them once named, with the merge the
// token names (the board says which: count and sum add, min and max keep theirs; an avg( ),
// stddev( ) or quantize( ) row has no merge and stays one row an address).
#define _GNU_SOURCE
#include <kevhost/stacksym.h>
#include <kevhost/tool_elfsym.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const kinds[] = { "sym", "mod", "usym", "umod", "uaddr", "addr" };
static const char *const merges[] = { "count", "sum", "min", "max" };

// name: what libdtrace prints for addr of this kind.
static void name(const char *kind, uint64_t addr, char *out, size_t n)
{
    int kernel = !strcmp(kind, "sym") || !strcmp(kind, "mod") || !strcmp(kind, "addr");
    char mod[64], fn[256];
    uint64_t off = 0;
    if (elfsym_lookup(addr, kernel, mod, sizeof(mod), fn, sizeof(fn), &off) != 0) {
        snprintf(out, n, "0x%" PRIx64, addr);
    } else if (!strcmp(kind, "mod") || !strcmp(kind, "umod")) {
        snprintf(out, n, "%s", mod);
    } else if (!fn[0]) {
        snprintf(out, n, "%s`0x%" PRIx64, mod, addr);
    } else if (!strcmp(kind, "sym") || !strcmp(kind, "usym") || off == 0) {
        snprintf(out, n, "%s`%s", mod, fn);
    } else {
        snprintf(out, n, "%s`%s+0x%" PRIx64, mod, fn, off);
    }
}

// token: the token at p (its kind, merge and address) and its length; 0 if none.
static size_t token(const char *p, const char **kind, const char **merge, uint64_t *addr)
{
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        size_t kl = strlen(kinds[k]);
        if (strncmp(p, kinds[k], kl) != 0)
            continue;
        const char *q = p + kl, *m = NULL;
        if (*q == '@') {
            for (size_t j = 0; j < sizeof(merges) / sizeof(merges[0]) && !m; j++)
                if (!strncmp(q + 1, merges[j], strlen(merges[j])) &&
                    q[1 + strlen(merges[j])] == '`')
                    m = merges[j];
            if (!m)
                continue;
            q += 1 + strlen(m);
        }
        if (q[0] != '`' || q[1] != '0' || q[2] != 'x')
            continue;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(q + 3, &end, 16);
        if (end == q + 3 || errno)
            continue;
        *kind = kinds[k];
        *merge = m;
        *addr = v;
        return (size_t)(end - p);
    }
    return 0;
}

int symaddr_line(const char *line, char *out, size_t n, const char **merge)
{
    size_t o = 0;
    int found = 0;
    *merge = NULL;
    for (const char *p = line; *p && o + 1 < n;) {
        const char *kind, *m;
        uint64_t addr;
        size_t tl = (p == line || !(p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9') ||
                                    ((p[-1] | 0x20) >= 'a' && (p[-1] | 0x20) <= 'z')))
                        ? token(p, &kind, &m, &addr) : 0;
        if (!tl) {
            out[o++] = *p++;
            continue;
        }
        found = 1;
        if (m)
            *merge = m;
        char nm[512];
        name(kind, addr, nm, sizeof(nm));
        size_t nl = strlen(nm), spaces = 0;
        p += tl;
        while (p[spaces] == ' ')
            spaces++;
        // keep the column: the spaces after the token take up the difference, at least one
        size_t keep = spaces == 0 ? 0 : nl <= tl ? spaces + (tl - nl)
                      : spaces > nl - tl ? spaces - (nl - tl) : 1;
        o += (size_t)snprintf(out + o, n - o, "%s%*s", nm, (int)keep, "");
        if (o >= n)
            o = n - 1;
        p += spaces;
    }
    out[o] = '\0';
    return found;
}

struct row {
    char *key;     // the line up to the blanks before its value
    int64_t value;
    int width;     // the value's field: the blanks and digits after the key
    unsigned order;
};

static struct row *rows;
static size_t nrows, caprows;

int symaddr_row(const char *line, const char *merge)
{
    size_t len = strlen(line);
    while (len && (line[len - 1] == '\n' || line[len - 1] == ' '))
        len--;
    size_t v = len;
    while (v && ((line[v - 1] >= '0' && line[v - 1] <= '9') || line[v - 1] == '-'))
        v--;
    size_t k = v;
    while (k && line[k - 1] == ' ')
        k--;
    if (v == len || k == v || k == 0)
        return -1;
    char *end;
    errno = 0;
    long long value = strtoll(line + v, &end, 10);
    if (errno || end != line + len)
        return -1;
    for (size_t i = 0; i < nrows; i++) {
        if (strlen(rows[i].key) != k || strncmp(rows[i].key, line, k) != 0)
            continue;
        if (!strcmp(merge, "min"))
            rows[i].value = value < rows[i].value ? value : rows[i].value;
        else if (!strcmp(merge, "max"))
            rows[i].value = value > rows[i].value ? value : rows[i].value;
        else
            rows[i].value += value;
        return 0;
    }
    if (nrows == caprows) {
        caprows = caprows ? 2 * caprows : 64;
        struct row *r = realloc(rows, caprows * sizeof(*rows));
        if (!r) {
            fprintf(stderr, "stacksym: out of memory\n");
            exit(1);
        }
        rows = r;
    }
    rows[nrows] = (struct row){ strndup(line, k), value, (int)(len - k), (unsigned)nrows };
    if (!rows[nrows].key) {
        fprintf(stderr, "stacksym: out of memory\n");
        exit(1);
    }
    nrows++;
    return 0;
}

static int by_value(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

void symaddr_flush(FILE *f)
{
    if (nrows)          // (qsort's array may not be NULL, even of 0 rows)
        qsort(rows, nrows, sizeof(*rows), by_value);
    for (size_t i = 0; i < nrows; i++) {
        fprintf(f, "%s%*lld\n", rows[i].key, rows[i].width, (long long)rows[i].value);
        free(rows[i].key);
    }
    nrows = 0;
}
