// SPDX-License-Identifier: MIT
// The D bytecode object ("DIF"): the only thing the compiler hands to the kernel. One flat,
// little-endian, versioned blob: a header of (count, offset) pairs followed by its tables.
// The kernel trusts none of it until dif_verify() accepted it; after that the VM still checks
// every value-dependent operation (loads, division, string bounds, stacks).
//
// Instructions are 32-bit words:  op:8 | r1:8 | r2:8 | rd:8
//   or, for table/variable forms:   op:8 | index:16 | reg:8
//   or, for branches:               op:8 | target:24   (absolute pc, strictly forward)
// Registers: DIF_NREGS 64-bit registers; %r0 always reads 0 and is never written.
#ifndef D_DIF_H
#define D_DIF_H

#include <stddef.h>
#include <stdint.h>

#define DIF_MAGIC   0x31464944u /* "DIF1" */
#define DIF_VERSION 1u

#define DIF_NREGS     8u
#define DIF_TUPMAX    10u    /* tuple stack: array keys and subroutine arguments */
#define DIF_RECMAX    16u    /* record stack: values one action records */
#define DIF_MAXPROG   4096u  /* instructions per program */
#define DIF_MAXOBJ    (1u << 20)
#define DIF_MAXVARS   256u
#define DIF_MAXAGGS   256u
#define DIF_STRSIZE_MAX 16384u /* largest strsize (libdtrace has no bound; a record holds 65520
                                * bytes, so a clause records three strings of this size) */
#define DIF_AGGPARAMS 4u

enum dif_op {
    DIF_NOP = 0,
    DIF_RET,   /* rd: the program's value */
    /* rd = r1 op r2 */
    DIF_OR, DIF_XOR, DIF_AND, DIF_SLL, DIF_SRL, DIF_SRA, DIF_ADD, DIF_SUB, DIF_MUL,
    DIF_SDIV, DIF_UDIV, DIF_SREM, DIF_UREM,
    /* rd = op r1 */
    DIF_NOT, DIF_MOV,
    /* rd = r1 sign- (SEXT) or zero- (ZEXT) extended from r2 bytes (immediate 1, 2 or 4) */
    DIF_SEXT, DIF_ZEXT,
    /* condition codes */
    DIF_CMP, DIF_SCMP, DIF_TST,
    /* branches: target in the low 24 bits */
    DIF_BA, DIF_BE, DIF_BNE, DIF_BG, DIF_BGU, DIF_BGE, DIF_BGEU, DIF_BL, DIF_BLU, DIF_BLE,
    DIF_BLEU,
    /* index forms: rd = ints[index], rd = &strtab[index] */
    DIF_SETX, DIF_SETS,
    /* rd = *(r1), checked address and alignment */
    DIF_LDSB, DIF_LDSH, DIF_LDSW, DIF_LDUB, DIF_LDUH, DIF_LDUW, DIF_LDX,
    /* variables: index = variable id; LD: rd = var, ST: var = reg (in the rd field) */
    DIF_LDGV, DIF_STGV, DIF_LDTV, DIF_STTV, DIF_LDSV, DIF_STSV, DIF_LDGA, DIF_STGA,
    DIF_BUILTIN, /* rd = built-in variable index */
    DIF_PUSHT,   /* push r1 on the tuple stack; r2 = DIF_TYPE_INT or DIF_TYPE_STR */
    DIF_PUSHR,   /* push r1 on the record stack; r2 = DIF_TYPE_INT or DIF_TYPE_STR */
    DIF_FLUSHT,  /* empty the tuple stack */
    DIF_CALL,    /* rd = subroutine index (arguments from the tuple stack, which it empties) */
    /* *(rd) = r1, 1/2/4/8 bytes: rd holds the address (it is read, not written); the VM
     * checks it is aligned and inside D's own writable memory (globals, clause-locals) */
    DIF_STB, DIF_STH, DIF_STW, DIF_STX,
    DIF_NOPS
};

#define DIF_INSTR(op, r1, r2, rd) \
    (((uint32_t)(op) << 24) | ((uint32_t)(r1) << 16) | ((uint32_t)(r2) << 8) | (uint32_t)(rd))
#define DIF_INSTR_IDX(op, idx, reg) (((uint32_t)(op) << 24) | ((uint32_t)(idx) << 8) | (reg))
#define DIF_INSTR_BR(op, target)    (((uint32_t)(op) << 24) | ((uint32_t)(target) & 0xffffffu))
#define DIF_OP(i)     ((uint8_t)((i) >> 24))
#define DIF_R1(i)     ((uint8_t)((i) >> 16))
#define DIF_R2(i)     ((uint8_t)((i) >> 8))
#define DIF_RD(i)     ((uint8_t)(i))
#define DIF_IDX(i)    ((uint16_t)((i) >> 8))
#define DIF_TARGET(i) ((i) & 0xffffffu)

/* DIF_TYPE_MEM: a variable of D memory (a struct, union or declared array) of dv_keys bytes
 * (1..DIF_MEMVAR_MAX), global or clause-local only; loading it gives its address, and it is
 * written only through DIF_ST* at addresses inside it. */
enum dif_type { DIF_TYPE_INT = 0, DIF_TYPE_STR = 1, DIF_TYPE_MEM = 2 };
#define DIF_MEMVAR_MAX 65536u

/* Built-in variables (DIF_BUILTIN index). */
enum dif_builtin {
    DIF_B_ARG0 = 0, /* ... DIF_B_ARG0 + 9 */
    DIF_B_TIMESTAMP = 10, DIF_B_VTIMESTAMP, DIF_B_WALLTIMESTAMP, DIF_B_PID, DIF_B_TID,
    DIF_B_PPID, DIF_B_CPU, DIF_B_EXECNAME, DIF_B_PROBEPROV, DIF_B_PROBEMOD, DIF_B_PROBEFUNC,
    DIF_B_PROBENAME, DIF_B_EPID, DIF_B_ID, DIF_B_ERRNO,
    DIF_B_PRIO,     /* the thread's priority (curlwpsinfo->pr_pri) */
    DIF_B_NLWP,     /* the process's thread count (curpsinfo->pr_nlwp) */
    DIF_B_NRUNNABLE, /* the threads on this CPU's ready queues (dvm_nrunnable; Solaris's
                      * curthread->t_cpu->cpu_disp->disp_nrunnable) */
    DIF_B_CONSUMER, /* the consumer's pid (struct dvm_state consumer_pid): $pid in a program
                     * compiled for a board, whose consumer the compiler is not */
    DIF_B_COUNT
};

/* Subroutines (DIF_CALL index) with their argument types (see dif_subr_sig in verify.c). */
enum dif_subr {
    DIF_S_STRLEN = 0, DIF_S_STRJOIN, DIF_S_SUBSTR2, DIF_S_SUBSTR3, DIF_S_INDEX, DIF_S_RINDEX,
    DIF_S_STRCHR, DIF_S_STRSTR, DIF_S_LLTOSTR, DIF_S_STRTOLL, DIF_S_TOUPPER, DIF_S_TOLOWER,
    DIF_S_SPECULATION,
    DIF_S_BASENAME, DIF_S_DIRNAME, DIF_S_CLEANPATH, DIF_S_STRRCHR, DIF_S_RAND, DIF_S_HTONS,
    DIF_S_HTONL, DIF_S_HTONLL, DIF_S_LLTOSTR2, DIF_S_STRTOK,
    /* the traced process's memory, read through the engine's dvm_state.uread (fault-safe):
     * copyin(addr, size) -> a scratch copy; copyinstr(addr[, max]) -> a string */
    DIF_S_COPYIN, DIF_S_COPYINSTR, DIF_S_COPYINSTR2,
    DIF_S_STRTOLL2,     /* strtoll(s, base): base 2..36, else an illegal-operation fault */
    DIF_S_ALLOCA,       /* alloca(size): size zeroed bytes of scratch, which DIF_ST* may write */
    /* speculate(id)'s check, emitted by the compiler only: id, or the clause stops there
     * when speculation id is missing or has no room for the clause's record (DTrace drops
     * the rest of such a clause, variable stores included) */
    DIF_S_SPECROOM,
    DIF_S_STACK,        /* stack(n)/ustack(n) as a value: (kind, frames) -> a stack id
                         * (d/dstacks.h; kind 0 kernel, 1 user) */
    DIF_S_STACKDEPTH,   /* stackdepth/ustackdepth: (kind) -> the firing's stack depth */
    /* a string member's store, emitted by the compiler only: (dst, s) writes s into the
     * strsize bytes at dst, NUL-padded, where DIF_ST* could write all of them; -> dst */
    DIF_S_COPYS,
    DIF_S_INDEX3,       /* index(s, sub, start), rindex(s, sub, start): searching from start */
    DIF_S_RINDEX3,
    /* a thread's or process's member as D's translators give it (d/dprinfo.h):
     * (member, who) -> an int (enum dvm_prinfo_member) or a string (enum dvm_prstr_member) */
    DIF_S_PRINFO, DIF_S_PRSTR,
    /* caller/ucaller: (kind) -> at a tick-N or profile-N probe its arg0/arg1 (the pc the
     * timer interrupted), else the firing's kernel/user stack's first frame (d/dstacks.h),
     * 0 when the host has no stack there */
    DIF_S_CALLER,
    DIF_S_JSON,         /* json(s, selector): the value's text, "" (DTrace: NULL) when none */
    /* a kernel variable's value (`name), emitted by the compiler only: (addr, size) -> its
     * size bytes (1, 2, 4 or 8), zero-extended, read through the host's dvm_kread */
    DIF_S_KVAR,
    /* progenyof(pid): 1 when the firing's process is pid or descends from it, its parents
     * walked through the host's dvm_lwpinfo (d/dprinfo.h), as Solaris walks p_parent */
    DIF_S_PROGENYOF,
    /* `utsname.m, `architecture, `platform: (member) -> the system's name of that kind
     * (enum dvm_uname_member, d/dprinfo.h), from the host's dvm_uname */
    DIF_S_UNAME,
    /* ((struct dev_info *)line)->devi_major, ->devi_instance: (member, line) -> the member
     * (enum ddev_member) of the interrupt line's device, from the host's dvm_devinfo; and
     * `devnamesp[major].dn_name: (major) -> the driver's name, from dvm_devname (d/ddevinfo.h);
     * a line or driver the host has none for is an invalid address */
    DIF_S_DEVINFO, DIF_S_DEVNAME,
    DIF_S_COUNT
};

/* Variable scopes (struct dif_var.dv_scope) and the opcodes that may name them. */
enum dif_scope { DIF_SCOPE_GLOBAL = 0, DIF_SCOPE_ARRAY, DIF_SCOPE_SELF, DIF_SCOPE_THIS };

/* Action kinds (struct dif_act.da_kind). "Recording" kinds write the record stack, laid out
 * by da_types, into the clause's record at da_offset. */
enum dif_actkind {
    DIF_ACT_EXPR = 0,   /* run for side effects (assignments) */
    DIF_ACT_TRACE,      /* record one value */
    DIF_ACT_PRINTF,     /* record args; da_arg = format string offset */
    DIF_ACT_EXIT,       /* record the status; stops tracing */
    DIF_ACT_AGG,        /* record stack = keys, return value = value; da_arg = aggregation */
    DIF_ACT_PRINTA,     /* da_arg = aggregation, da_arg2 = format offset or UINT32_MAX; a printa( )
                         * of several aggregations is one such action, then one per further
                         * aggregation with da_arg2 = DIF_PRINTA_JOINED */
    DIF_ACT_CLEAR,      /* da_arg = aggregation */
    DIF_ACT_TRUNC,      /* da_arg = aggregation; record stack: optional count */
    DIF_ACT_NORMALIZE,  /* da_arg = aggregation; record stack: factor */
    DIF_ACT_DENORMALIZE,/* da_arg = aggregation */
    DIF_ACT_SPECULATE,  /* return value = speculation id */
    DIF_ACT_COMMIT,
    DIF_ACT_DISCARD,
    DIF_ACT_TRACEMEM,   /* record stack: an address; da_arg = bytes copied from it, up to
                         * DIF_TRACEMEM_MAX; the record is da_arg rounded up to 8 bytes */
    DIF_ACT_AGGINCR,    /* DIF_ACT_AGG with one more value on the record stack, after the
                         * keys: the quantize-family increment (quantize(v, incr) ...) */
    DIF_ACT_STACK,      /* stack( ), ustack( ), jstack( ): da_arg 0 kernel, 1 user, 2 java.
                         * Records one 'k' value (a stack id, d/dstacks.h); jstack( ), which
                         * has no frames here, records nothing */
    DIF_ACT_SETOPT,     /* da_arg option name, da_arg2 its value (UINT32_MAX: none); records
                         * nothing: the consumer sets it when it reads the clause's record */
    DIF_ACT_FREOPEN,    /* da_arg the file the consumer's output goes to ("": back to stdout) */
    DIF_ACT_SYSTEM,     /* as DIF_ACT_PRINTF; the consumer runs the formatted command */
    DIF_ACT_RAISE,      /* raise(sig): records "ll", the signal and the firing process's pid;
                         * the consumer signals that process (DTrace's raise) */
    DIF_ACT_TRIGGER,    /* freeze( ), panic( ), breakpoint( ): da_arg DIF_TRIG_*; records
                         * nothing; the host acts after the firing (dvm_state's trig_*) */
    DIF_ACT_NKINDS
};
/* DIF_ACT_TRIGGER's actions (the numbers of trace/kev_incident.h's enum kev_inc_action) */
#define DIF_TRIG_FREEZE     0u
#define DIF_TRIG_PANIC      1u
#define DIF_TRIG_BREAKPOINT 2u
#define DIF_TRIG_NKINDS     3u
#define DIF_TRACEMEM_MAX 1024u
#define DIF_CLAUSE_RECMAX 65520u /* a clause's record data, at most: with the engine's header
                                 * a record's size fits 16 bits */
#define DIF_PRINTA_JOINED (UINT32_MAX - 1u)
#define DIF_PRINTA_MAX    64u  /* aggregations in one printa( ) */

enum dif_aggfunc {
    DIF_AGG_COUNT = 0, DIF_AGG_SUM, DIF_AGG_MIN, DIF_AGG_MAX, DIF_AGG_AVG, DIF_AGG_STDDEV,
    DIF_AGG_QUANTIZE, DIF_AGG_LQUANTIZE, DIF_AGG_LLQUANTIZE, DIF_AGG_NFUNCS
};

#define DIF_QUANTIZE_NBUCKETS 127 /* -2^62 .. -1, 0, 1 .. 2^62 (index 63 is zero) */
#define DIF_QUANTIZE_ZERO     63

/* Type descriptors (strings in the string table) give one character per value:
 * 'b','h','i','l' signed 1/2/4/8 bytes, 'B','H','I','L' unsigned, 's' string, 'k' a stack
 * (8 bytes: a stack id of the engine's stack table, d/dstacks.h; 0 the empty stack), and an
 * address printed symbolically (8 bytes): 'y' func( )/sym( ), 'm' mod( ), 'u' ufunc( )/usym( ),
 * 'n' umod( ), 'a' uaddr( ) (trace/d/symaddr.c); 'f' a float's bits (low 4 bytes) and 'd' a
 * double's (8), printf( )'s %e %f %g arguments.
 * Recorded ints always take 8 bytes (little-endian); strings take strsize bytes. */

struct dif_prog {
    uint32_t dp_start; /* first instruction in the instruction table */
    uint32_t dp_len;   /* 0: no program */
};

struct dif_var {
    uint32_t dv_name;  /* string table offset */
    uint8_t dv_scope;  /* enum dif_scope */
    uint8_t dv_type;   /* enum dif_type of the value */
    uint8_t dv_size;   /* integer size in bytes (1, 2, 4, 8) */
    uint8_t dv_signed;
    uint32_t dv_keys;  /* arrays: type descriptor of the key tuple; else 0 */
};

/* A struct-valued associative array (DIF_SCOPE_ARRAY with DIF_TYPE_MEM; objects before
 * this form had none, the verifier refused it): dv_keys is its key descriptor as for any
 * array, and dv_size | dv_signed << 8, which say nothing else of a memory value, is the
 * value's size in 8-byte words (1 .. DIF_MEMVAR_MAX / 8). DIF_LDGA gives the element's
 * address, creating it zeroed when it is missing (as DTrace faults in a by-reference
 * element); DIF_ST* may write inside its value, and DIF_STGA never names it. */
static inline uint32_t dif_var_memsize(const struct dif_var *dv)
{
    return ((uint32_t)dv->dv_size | (uint32_t)dv->dv_signed << 8) * 8u;
}

struct dif_act {
    uint16_t da_kind;   /* enum dif_actkind */
    uint16_t da_pad;
    uint32_t da_offset; /* of its data in the clause record */
    uint32_t da_size;   /* bytes of record data */
    uint32_t da_types;  /* type descriptor of the record stack (string offset) */
    uint32_t da_arg, da_arg2;
    uint32_t da_line;   /* source line, for messages */
    struct dif_prog da_prog;
};

struct dif_clause {
    struct dif_prog dc_pred;
    uint32_t dc_act;     /* first action */
    uint32_t dc_nacts;
    uint32_t dc_recsize; /* bytes recorded after the EPID (0: records only the EPID) */
    uint32_t dc_flags;   /* DIF_CLF_* */
};
#define DIF_CLF_SPEC  1u /* contains speculate() */
#define DIF_CLF_NOREC 2u /* records nothing in the principal buffer (aggregations only) */
#define DIF_CLF_SCRATCH 4u /* keeps its scratch from action to action (alloca( ), copyin( )
                            * pointers may live in variables); without it each action
                            * starts with the firing's scratch empty */

struct dif_probe {
    uint32_t dp_id;       /* probe id: the provider table's id, or a timer id */
    uint32_t dp_prov, dp_mod, dp_func, dp_name; /* string offsets */
    uint64_t dp_period;   /* tick-/profile-: period in ns; USDT, pid: d/dprobes.h; else 0 */
    uint32_t dp_flags;    /* DIF_PRF_* */
    uint32_t dp_pad;
};
#define DIF_PRF_TICK    1u /* fires on one CPU */
#define DIF_PRF_PROFILE 2u /* fires on every CPU */

struct dif_ecb {
    uint32_t de_probe;  /* index in the object's probe table */
    uint32_t de_clause; /* clause index */
};

struct dif_agg {
    uint32_t dg_name;   /* string offset ("" for the anonymous @) */
    uint16_t dg_func;   /* enum dif_aggfunc */
    uint16_t dg_nkeys;
    uint32_t dg_keys;   /* type descriptor of the keys */
    uint32_t dg_pad;
    int64_t dg_param[DIF_AGGPARAMS]; /* lquantize lo, hi, step; llquantize factor, lo, hi, nsteps */
};

struct dif_hdr {
    uint32_t dh_magic, dh_version, dh_size, dh_flags;
    uint32_t dh_nints, dh_ints;     /* uint64_t[] */
    uint32_t dh_strlen, dh_strs;    /* NUL-terminated strings; offset 0 is "" */
    uint32_t dh_ninsns, dh_insns;   /* uint32_t[] */
    uint32_t dh_nvars, dh_vars;
    uint32_t dh_nacts, dh_acts;
    uint32_t dh_nclauses, dh_clauses;
    uint32_t dh_nprobes, dh_probes;
    uint32_t dh_necbs, dh_ecbs;
    uint32_t dh_naggs, dh_aggs;
    uint32_t dh_strsize;            /* string size the programs were compiled for */
    uint32_t dh_pad;
};

/* The layout is the same on the host (which compiles) and the target (which runs): */
_Static_assert(sizeof(struct dif_prog) == 8, "dif_prog layout");
_Static_assert(sizeof(struct dif_var) == 12, "dif_var layout");
_Static_assert(sizeof(struct dif_act) == 36, "dif_act layout");
_Static_assert(sizeof(struct dif_clause) == 24, "dif_clause layout");
_Static_assert(sizeof(struct dif_probe) == 40, "dif_probe layout");
_Static_assert(sizeof(struct dif_ecb) == 8, "dif_ecb layout");
_Static_assert(sizeof(struct dif_agg) == 48, "dif_agg layout");
_Static_assert(sizeof(struct dif_hdr) == 96, "dif_hdr layout");

/* A verified object: pointers into the blob. */
struct dif_obj {
    const struct dif_hdr *hdr;
    const uint64_t *ints;
    const char *strs;
    const uint32_t *insns;
    const struct dif_var *vars;
    const struct dif_act *acts;
    const struct dif_clause *clauses;
    const struct dif_probe *probes;
    const struct dif_ecb *ecbs;
    const struct dif_agg *aggs;
};

/* dif_verify: checks everything about blob (which must be 8-byte aligned) that can be checked
 * before running it. Returns 0 and fills *obj, or -1 with a message in err naming the table
 * entry or program and pc. */
int dif_verify(const void *blob, size_t len, struct dif_obj *obj, char *err, size_t errlen);
/* dif_destructive: the verified object's destructive actions, as DTrace counts them: 1 for
 * system( ), freopen( ) or raise( ) (the consumer's: -w), 2 when it also has panic( ) or
 * breakpoint( ) (the kernel's: -w and a privileged consumer); 0 for none. */
int dif_destructive(const struct dif_obj *o);

/* dif_str: the string at a verified offset. */
static inline const char *dif_str(const struct dif_obj *o, uint32_t off) { return o->strs + off; }

/* dif_enables_range: whether a verified object enables a probe whose id is in [lo, end) (a
 * provider that cannot place its probes on this board refuses such an object). */
static inline int dif_enables_range(const struct dif_obj *o, uint32_t lo, uint32_t end)
{
    for (uint32_t k = 0; k < o->hdr->dh_nprobes; k++)
        if (o->probes[k].dp_id >= lo && o->probes[k].dp_id < end)
            return 1;
    return 0;
}

/* Helpers shared by the compiler, verifier, VM and consumer. */
const char *dif_opname(unsigned op);
unsigned dif_types_size(const char *types, unsigned strsize); /* bytes recorded */

#endif
