// SPDX-License-Identifier: MIT
// kevtable: the event table (trace/kev_events.c) as a person or a test reads it. With no file
// it prints the table, one Markdown table a class (docs/trace-events.md's "The event table"
// is this output, checked equal by test/tools/test_docs_events.sh); with a capture it prints
// every event decoded by the generic decoder: "time cpu CLASS NAME field=value ...", the
// same fields every converter writes. It owns no layout: both come from the table.
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kevhost/tool_file.h>
#include <kevhost/tool_opts.h>
#include <trace/kev_decode.h>
#include <trace/kev_events.h>

static const struct tool_opt opts[] = {
    { 0 },
};
static const struct tool_cmd cmd = {
    "kevtable", "[--help] [FILE.kev]",
    "  Without FILE: print the event table (every event's class, number, name, fields with\n"
    "  their kinds and meanings, fast and wide words, QNX encoding, D probes) as Markdown.\n"
    "  With FILE: print each event of the capture with its named fields, one line each:\n"
    "  \"cycles cpu CLASS NAME field=value ...\" (strings quoted, arrays in [ ]).\n",
    opts, "Exit status: 0 ok, 1 unreadable or damaged capture, 2 bad usage.\n",
};

// Prints the listing; 1 when the table is not in (class, number) order, which
// kev_event_describe's binary search needs.
static int print_table(void)
{
    unsigned last = ~0u;
    for (unsigned i = 0; i < kev_event_rows(); i++) {
        const struct kev_event_desc *d = kev_event_row(i), *p = i ? kev_event_row(i - 1) : NULL;
        if (p && i < kev_event_table_len && (d->cls < p->cls || (d->cls == p->cls && d->lo <= p->hi))) {
            fprintf(stderr, "kevtable: trace/kev_events.c: row %s (class %u, %u) is out of "
                    "(class, number) order or overlaps %s: move it\n", d->name, d->cls, d->lo, p->name);
            return 1;
        }
        if (d->cls != last) {
            printf("%s### %s (class %u)\n\n", last == ~0u ? "" : "\n", kev_class_name(d->cls),
                   d->cls);
            printf("| event | name | fields | words fast, wide | QNX | D probes |\n"
                   "|---|---|---|---|---|---|\n");
            last = d->cls;
        }
        if (d->lo == d->hi)
            printf("| %u | %s | ", d->lo, d->name);
        else
            printf("| %u-%u | %s | ", d->lo, d->hi, d->name);
        if (d->kcall)
            printf("the call's arguments and result (`trace/kev_kercall.c`)");
        for (unsigned k = 0; k < d->nfields; k++)
            printf("%s`%s` %s%s", k ? ", " : "", d->fields[k].name,
                   kev_fkind_name(d->fields[k].kind), d->fields[k].wide ? " (wide)" : "");
        if (d->fast_words)
            printf(" | %u, %u", d->fast_words, d->wide_words ? d->wide_words : d->fast_words);
        else
            printf(" | combine");
        printf(" | %s | %s |\n", d->qnx ? "yes" : "ours", d->probes && d->probes[0] ? d->probes : "-");
    }
    return 0;
}

static void print_field(const struct kev_field *f)
{
    printf(" %s=", f->name);
    if (f->kind == KEV_K_STRING) {
        putchar('"');
        for (const char *s = f->str; s && *s; s++)
            if ((unsigned char)*s < 0x20 || *s == '"' || *s == '\\' || (unsigned char)*s == 0x7f)
                printf("\\x%02x", (unsigned char)*s);
            else
                putchar(*s);
        putchar('"');
    } else if (KEV_K_IS_ARRAY(f->kind)) {
        putchar('[');
        for (unsigned i = 0; i < f->n; i++)
            printf(i ? ",0x%" PRIx64 : "0x%" PRIx64, f->arr[i]);
        putchar(']');
    } else if (f->kind == KEV_K_S32) {
        printf("%" PRId64, (int64_t)f->v);
    } else if (f->kind == KEV_K_HEX || f->kind == KEV_K_ADDR || f->kind == KEV_K_WHO) {
        printf("0x%" PRIx64, f->v);
    } else {
        printf("%" PRIu64, f->v);
        const char *nm = kev_field_text(f);
        if (nm)
            printf("(%s)", nm);
    }
}

static int print_events(const char *path)
{
    size_t len;
    uint8_t *buf = tool_read_file(path, &len);
    if (!buf) {
        fprintf(stderr, "kevtable: cannot read %s: %s\n", path, strerror(errno));
        return 1;
    }
    static struct kev_reader r;
    static struct kev_fields fs;
    struct kev_event e;
    int rc = kev_open(&r, buf, len);
    while (rc == 0 && (rc = kev_next(&r, &e)) == 1) {
        kev_fields_decode(&r, &e, &fs);
        printf("%" PRIu64 " %u %s %s", e.t64, e.cpu, kev_class_name(e.cls) ? kev_class_name(e.cls) : "?",
               fs.name);
        for (unsigned i = 0; i < fs.n; i++)
            print_field(&fs.f[i]);
        putchar('\n');
        rc = 0;
    }
    free(buf);
    if (rc != 0) {
        fprintf(stderr, "kevtable: %s: %s (is it a .kev capture? traceprinter says more)\n", path,
                kev_error(&r));
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct tool_args a = { argc, argv, 0, NULL };
    int id = tool_opts_next(&cmd, &a);     // kevtable's one option is --help
    if (id != TOOL_OPTS_END)
        return tool_opts_exit(id);
    if (a.ind + 1 < argc) {
        fprintf(stderr, "kevtable: only one FILE, got %s and %s\n", argv[a.ind], argv[a.ind + 1]);
        return 2;
    }
    if (a.ind == argc)
        return print_table();
    return print_events(argv[a.ind]);
}
