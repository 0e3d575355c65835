// SPDX-License-Identifier: MIT
// The D consumer: turns principal-buffer records and aggregation buffers into the text
// dtrace(1M) prints (probe lines, trace() widths, printf, printa, quantize tables, the final
// newline and automatic aggregation printing) and the stderr messages (errors, drops).
// Portable: output goes through caller callbacks; memory comes from the caller's arena.
#ifndef D_DCONS_H
#define D_DCONS_H

#include <d/dvm.h>
#include <stddef.h>
#include <stdint.h>

struct dcons_out {
    void (*write)(void *arg, const char *s, size_t n);
    void *arg;
};

struct dfmt_arg {
    char type;          /* a type character (d/dif.h) */
    int64_t i;
    const char *s;      /* strings: NUL-terminated */
};

struct dfmt_spec {
    char conv;          /* d i o u x X c s p % */
    int minus, plus, space, hash, zero, at;
    int width, prec;    /* -1: none */
};

/* dfmt_printf: formats like printf(3) for the D conversions; %@ calls aggval (printa). */
typedef void (*dfmt_aggval)(void *ctx, const struct dfmt_spec *spec);
void dfmt_printf(const struct dcons_out *o, const char *fmt, const struct dfmt_arg *args,
                 unsigned nargs, dfmt_aggval aggval, void *ctx);
void dfmt_puts(const struct dcons_out *o, const char *s);
void dfmt_int(const struct dcons_out *o, const struct dfmt_spec *sp, int64_t v, char type);
void dfmt_str(const struct dcons_out *o, const struct dfmt_spec *sp, const char *s);

enum dcons_sort { DCONS_SORT_VALUE = 0, DCONS_SORT_KEY = 1 };

struct dcons;
#define DCONS_CMDMAX 256 /* bytes of a system( ) command (longer ones are cut) */
/* The consumer actions its front end carries out (a NULL member: not available there, which
 * the consumer reports as an error of the clause's probe). Each returns 0, or -1 with *why. */
struct dcons_host {
    int (*setopt)(struct dcons *c, const char *name, const char *value, const char **why);
    int (*freopen)(struct dcons *c, const char *path, const char **why);
    int (*system)(struct dcons *c, const char *cmd, const char **why);
    void *arg;
    /* raise( ): signal sig to process pid, the one that fired the probe */
    int (*raise)(struct dcons *c, int64_t pid, int64_t sig, const char **why);
};

/* the encoding option's values, as libdtrace's dt_encoding (unset: tables draw @s, aggpack's lines
 * utf8 unless term_ascii) */
enum { DCONS_ENC_UNSET = 0, DCONS_ENC_ASCII = 1, DCONS_ENC_UTF8 = 2 };

struct dcons {
    struct dvm_state *st;
    const struct dif_obj *obj;
    struct dcons_out out, err;
    int quiet;
    int aggsortkey, aggsortrev;
    int aggzoom;            /* distributions scaled to their largest row, not their total */
    int agghist;            /* count/sum/avg/stddev aggregations printed as histograms */
    int encoding;           /* DCONS_ENC_*: the encoding option (utf8: bars of block elements) */
    int aggpack;            /* quantize/lquantize printed packed, a line per key (caggpack.c) */
    int term_ascii;         /* TERM is sun, sun-color or dumb: aggpack's unset encoding is ascii */
    int droptags;           /* -x droptags: "[DTRACEDROP_*] " before each drop report */
    int noerror;            /* -x noerror: fault reports are not printed (ERROR still fires) */
    int flowindent;         /* -F: entry/return probes indented as a call flow (flowindent.c) */
    int flow_depth;         /* flowindent: the current indent, in columns */
    unsigned aggsortkeypos; /* key compared first */
    unsigned aggsortpos;    /* printa( ) of several: the aggregation compared first */
    int header_done;
    int exited;             /* an exit() record was seen */
    int exit_status;
    uint8_t printed[DIF_MAXAGGS];
    int64_t norm[DIF_MAXAGGS];
    uint64_t seen_drops[DVM_MAXCPU], seen_aggdrops[DVM_MAXCPU], seen_dyndrops;
    uint64_t seen_specdrops, seen_specfailed, seen_dblerrors;
    const struct dcons_host *host; /* setopt( ), freopen( ), system( ); NULL: none */
    void *mem;              /* scratch for merging aggregations */
    size_t memlen;
};

/* dcons_stack_print: a stack id as dt_print_stack prints a stack (trace/d/cstack.c), from the
 * stack table of dcons_stack_state (dcons_init sets it). */
extern const struct dvm_state *dcons_stack_state;
void dcons_stack_print(const struct dcons_out *o, uint64_t id);

/* dcons_symaddr_kind: the kind of symbolic address a value of record type `type` printed
 * with conversion `conv` is ("sym", "mod", "usym", "umod", "uaddr", "addr"), NULL for a plain
 * value; dcons_symaddr_token: the token the board prints for it, "usym`0xc009a", with
 * "@merge" (the aggregating function) after a grouping kind in printa( )'s keys
 * (trace/d/csymaddr.c). */
const char *dcons_symaddr_kind(char type, char conv);
void dcons_symaddr_token(char *buf, size_t n, const char *kind, const char *merge, uint64_t v);

/* bar_total: the sum of a distribution's shown rows' magnitudes (or, zoomed, the largest), in
 * 128 bits as libdtrace's long double total reaches past 64 (no 128-bit type on 32-bit targets). */
struct dcons_bar_total {
    uint64_t lo, hi;
};
/* dcons_bar_depth: |val| * len / total rounded to the nearest (num 19 / den 20 under aggzoom,
 * an exact half rounding down there), at most len: the length of a bar, or a glyph's level. */
unsigned dcons_bar_depth(int64_t val, struct dcons_bar_total total, unsigned len, int zoom);
/* dcons_bucket_label: bucket k of nv's label in a distribution's table: its value, or
 * "< base" / ">= top" on the outer buckets of lquantize and llquantize. */
void dcons_bucket_label(const struct dif_agg *g, unsigned nv, unsigned k, char *label, size_t n);
/* dcons_keys_packed: a row's keys as agghist and aggpack print them (a string 16 wide). */
void dcons_keys_packed(struct dcons *c, const char *types, const uint8_t *keys);
/* aggpack (trace/d/caggpack.c): dcons_pack_bins widens [*lo, *hi] (start at [~0u, 0]) to
 * one key's buckets as dt_aggregate_minmaxbin; dcons_pack_head prints the aggregation's header
 * over the keys' common range (width: the keys' columns), dcons_pack_row one key's line (the
 * keys printed before it). */
int dcons_pack_on(const struct dcons *c, unsigned agg);
void dcons_pack_bins(const struct dcons *c, unsigned agg, const int64_t *v, unsigned *lo,
                     unsigned *hi);
void dcons_pack_head(struct dcons *c, unsigned agg, int width, unsigned lo, unsigned hi);
void dcons_pack_row(struct dcons *c, unsigned agg, const int64_t *v, unsigned lo, unsigned hi);

void dcons_init(struct dcons *c, struct dvm_state *st, const struct dcons_out *out,
                const struct dcons_out *err, void *mem, size_t memlen);
/* dcons_record: a dvm_rec_cb; arg is the struct dcons. */
void dcons_record(void *arg, const struct dvm_rechdr *rec);
/* dcons_drops: reports new drops since the last call ("dtrace: N drops on CPU C"). */
void dcons_drops(struct dcons *c);
/* dcons_print_agg: prints one aggregation (fmt NULL: default layout). */
void dcons_print_agg(struct dcons *c, unsigned agg, const char *fmt);
/* dcons_print_aggs: printa( ) of several aggregations, joined on their keys. */
void dcons_print_aggs(struct dcons *c, const unsigned *aggs, unsigned naggs, const char *fmt);
/* dcons_flow_line: -F's start of a probe's line (flowindent.c); the header first. */
void dcons_flow_line(struct dcons *c, unsigned cpu, const struct dif_obj *o,
                     const struct dif_probe *p);
/* dcons_final: after END: one newline, then every aggregation not printed by printa. */
void dcons_final(struct dcons *c);
/* dcons_list_probes: `dtrace -l`: the probes a compiled program matched (o), or every probe
 * of the kernel's table (o NULL), one per line under an ID PROVIDER MODULE FUNCTION NAME head. */
void dcons_list_probes(const struct dcons_out *out, const struct dif_obj *o);

#endif
