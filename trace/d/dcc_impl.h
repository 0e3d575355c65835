// SPDX-License-Identifier: MIT
// Internals shared by the D compiler's files: tokens (lex.c), the syntax tree (parse.c) and
// what the code generator (cg*.c) reads. Every allocation comes from cc->arena; an error longjmps
// out through cc->fail after setting the message, so no caller checks a return code.
#ifndef D_DCC_IMPL_H
#define D_DCC_IMPL_H

#include <d/dcc.h>
#include <d/dif.h>
#include "dutil.h"
#include <setjmp.h>

enum tok {
    T_EOF = 0, T_INT, T_STR, T_IDENT, T_PDESC,
    T_LPAR, T_RPAR, T_LBRACK, T_RBRACK, T_LBRACE, T_RBRACE, T_COMMA, T_SEMI, T_COLON, T_QUEST,
    T_ARROW, T_DOT, T_AT,
    /* operators: binary ones in precedence order is not required, see parse.c */
    T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT, T_SHL, T_SHR, T_LT, T_GT, T_LE, T_GE, T_EQ,
    T_NE, T_AMP, T_CARET, T_BAR, T_LAND, T_LOR, T_LXOR, T_NOT, T_TILDE, T_INC, T_DEC,
    T_ASSIGN, T_ADD_EQ, T_SUB_EQ, T_MUL_EQ, T_DIV_EQ, T_MOD_EQ, T_SHL_EQ, T_SHR_EQ, T_AND_EQ,
    T_XOR_EQ, T_OR_EQ,
};

/* A pointer is an unsigned 8-byte integer (kind, size, sign say so, so that integer code
 * handles it) with ptr levels above its base type, which p* and sou describe. */
struct dtype {
    uint8_t kind;   /* DIF_TYPE_INT, DIF_TYPE_STR, DT_NONE or DT_SOU */
    uint8_t size;   /* ints: 1, 2, 4, 8 */
    uint8_t sign;
    uint8_t ptr;    /* levels of pointer above the base type */
    uint16_t sou;   /* DT_SOU (or a pointer to one): index + 1 in cc->sous (types.c) */
    uint8_t pkind, psize, psign; /* a pointer's base type */
};
#define DT_NONE 2
#define DT_SOU  3   /* a struct or union */
#define DT_FLOAT 4  /* float, double, long double: laid out in structs, never a value */

/* A struct or union (types.c) and its members, in declaration order. */
struct dmember {
    struct dmember *next;
    const char *name;   /* NULL: an unnamed bit-field */
    struct dtype type;
    uint32_t nelem;     /* array elements; 1 for a scalar, 0 for a trailing [] */
    uint8_t isarr;
    uint32_t off;       /* byte offset */
    uint8_t bits;       /* bit-field width, 0 if not a bit-field */
};
struct dsou {
    const char *tag;    /* NULL: anonymous */
    uint8_t is_union;
    uint8_t complete;   /* its { members } were seen */
    uint32_t size, align;
    struct dmember *members, *last;
    struct dmember *anon;   /* members of unnamed struct/union members, at their offsets here */
};

enum nkind {
    N_INT, N_STR, N_IDENT, N_SELF, N_THIS, N_INDEX, N_AGG, N_CALL, N_BIN, N_UN, N_PREINC,
    N_PREDEC, N_POSTINC, N_POSTDEC, N_ASSIGN, N_COND, N_CAST, N_SIZEOF, N_COMMA,
    N_IF,   /* a: condition, b: then statements, c: else statements (parse.c splits clauses) */
    N_MEMBER,  /* a.s (op T_DOT) or a->s (op T_ARROW) */
    N_DEREF, N_ADDROF, N_STRINGOF, /* *a, &a, stringof a */
    N_SUBSCR,  /* a[b] on an expression (a declared array, a pointer) */
    N_XLATE,   /* xlate <type>(a) */
    N_INLARR,  /* s[b...]: an inline array's use (cg_xlate.c binds its parameters to b) */
};

/* translator dst < src pname > { member = expr; ... }; (parse.c; cg_xlate.c expands xlate) */
struct dxmember {
    struct dxmember *next;
    const char *name;
    struct dnode *expr;
    int line;
};
struct dxlator {
    struct dxlator *next;
    struct dtype dst, src;
    const char *pname;
    struct dxmember *members;
};

struct dnode {
    uint8_t kind;
    uint8_t op;         /* token of the operator */
    int line;
    struct dnode *a, *b, *c;
    struct dnode *next; /* lists: keys, arguments, statements */
    int64_t ival;
    const char *s;
    struct dtype type;  /* literals and casts */
};

struct dclause {
    struct dclause *next;
    int line;
    unsigned ndesc;
    const char **desc;  /* probe descriptions as written */
    struct dnode *pred;
    struct dnode *stmts;
};

/* Names the parser resolves itself: typedefs, enumerators and inlines (parse.c). */
enum { DNAME_TYPEDEF, DNAME_ENUMERATOR, DNAME_INLINE, DNAME_ENUMTAG };
struct dname {
    struct dname *next;
    const char *name;
    int kind;
    int line;
    struct dtype type;  /* typedef's type; an inline's declared type */
    int64_t val;        /* enumerator's value */
    struct dnode *expr; /* inline's expression */
    unsigned group;     /* enumerator: which enum declared it */
    struct dname *inl_next; /* inlines in program order (cc->inlines) */
    unsigned seq;           /* an inline's place among declarations (ddecl.seq) */
    unsigned nparams;       /* an inline array's parameters: names and types */
    const char *pnames[DIF_TUPMAX];
    struct dtype ptypes[DIF_TUPMAX];
};

/* In a key signature ('l' integer, 's' string), a struct or union key is DCC_KEY_SOU plus its
 * type's index (dtype.sou); cg_var.c pushes such a key as its bytes, 8 to an integer key. */
#define DCC_KEY_SOU 0x7f

struct ddecl {
    struct ddecl *next;
    int line;
    const char *name;
    uint8_t scope;      /* DIF_SCOPE_* */
    uint8_t isarr;      /* a declared array of nelem elements of type */
    uint32_t nelem;
    uint8_t assoc;      /* a declared associative array: keys[] ('l' or 's' per key) */
    unsigned seq;       /* place in the program among declarations and inlines */
    char keys[DIF_TUPMAX + 1];
    struct dtype type;
};

struct dcc {
    struct d_arena arena;
    const struct dcc_in *in;
    struct dcc_out *out;
    jmp_buf fail;
    unsigned strsize;
    int zdefs;              /* #pragma D option zdefs (dtrace -Z): a description may match no probe */
    int defaultargs, argref; /* dcc_in's, or their #pragma D option */
    uint64_t argused;       /* script arguments $N named so far: bit N (lex.c) */
    /* lexer */
    const char *src, *end, *p;
    int line;
    int tok;            /* current token */
    int tokline;
    int64_t tokval;
    struct dtype toktype;
    char *tokstr;       /* identifiers, strings, probe descriptions */
    int in_pred;
    int depth;          /* expression nesting, bounded so the stack is */
    uintptr_t stack_floor; /* dcc_stack_check: the lowest frame address allowed; 0: none */
    unsigned nifs;      /* if statements split so far (their hidden this-> variables) */
    struct dname *names;
    unsigned nenums;
    struct dsou **sous; /* struct and union types (types.c) */
    struct dxlator *xlators;
    unsigned nsous;
    /* parse results */
    struct dclause *clauses, **clause_tail;
    struct ddecl *decls, **decl_tail;
    struct dname *inlines, **inline_tail;
    unsigned ndecls;    /* declarations and inlines so far (their seq) */
    /* identifiers named by #pragma D attributes (lex.c), to be defined by the program */
#define DCC_MAXPRAGMA_IDS 16
    const char *pragma_ids[DCC_MAXPRAGMA_IDS];
    int pragma_lines[DCC_MAXPRAGMA_IDS];
    unsigned npragma_ids;
};

_Noreturn void dcc_error(struct dcc *cc, int line, const char *tag, const char *fmt, ...)
    __attribute__((format(printf, 4, 5))); /* conversions: %s %.*s %u %d %c */
void *dcc_alloc(struct dcc *cc, size_t n);
/* dcc_stack_check: a D_SYNTAX error at `line` if the caller's frame lies below the stack room
 * dcc_in gave (stack_room); called where the parser and the code generator recurse. */
void dcc_stack_check(struct dcc *cc, int line);
/* d_subr_unsupported: why a DTrace subroutine this engine lacks is missing; NULL for the rest
 * (subr_unsupported.c) */
const char *d_subr_unsupported(const char *name);
/* d_symaddr_type: the record type letter of a subroutine that keeps an address as a symbolic
 * value (func, sym, mod, ufunc, usym, umod, uaddr); 0 for other names (symaddr.c) */
char d_symaddr_type(const char *name);
char *dcc_strdup(struct dcc *cc, const char *s, size_t n);
void dcc_lex_next(struct dcc *cc);
/* dcc_args_check: after parsing, the last script argument must have been named (libdtrace's
 * D_MACRO_UNUSED) unless -x argref */
void dcc_args_check(struct dcc *cc);
/* dcc_pdesc_expand: a probe description with its $N and $name macros replaced (lex.c) */
const char *dcc_pdesc_expand(struct dcc *cc, const char *desc);
void dcc_lex_pdesc(struct dcc *cc);
const char *dcc_tokname(int tok);
void dcc_parse(struct dcc *cc);
void dcc_codegen(struct dcc *cc);

/* parse.c helpers shared with decl.c */
_Noreturn void dcc_syntax(struct dcc *cc);
void dcc_expect(struct dcc *cc, int tok);
int dcc_is_word(struct dcc *cc, const char *w);
struct dname *dcc_name_find(struct dcc *cc, const char *s, int kind);
struct dname *dcc_name_add(struct dcc *cc, const char *s, int kind, int line);
int dcc_fold_ok(const struct dnode *n, int64_t *v);
struct dnode *dcc_cond(struct dcc *cc);
struct dnode *dcc_assign(struct dcc *cc);

/* decl.c: declarations and type names */
int dcc_type_start(struct dcc *cc);
int dcc_decl_start(struct dcc *cc);
struct dtype dcc_parse_type(struct dcc *cc);
void dcc_declaration(struct dcc *cc);

/* types.c: struct/union layout and type sizes (0: an incomplete struct or union) */
struct dsou *dcc_sou(struct dcc *cc, struct dtype t);
struct dtype dcc_sou_get(struct dcc *cc, const char *tag, int is_union, int line);
const char *dcc_sou_kind(const struct dsou *s);
struct dmember *dcc_member_find(const struct dsou *s, const char *name);
void dcc_member_add(struct dcc *cc, struct dsou *s, const char *name, struct dtype t,
                    uint32_t nelem, unsigned bits, int line);
unsigned dcc_type_size(struct dcc *cc, struct dtype t);
unsigned dcc_type_align(struct dcc *cc, struct dtype t);
struct dtype dcc_ptr_to(struct dtype t);
struct dtype dcc_deref(struct dtype t);

/* procinfo.c: the translated types' members (curpsinfo, curlwpsinfo, curcpu, args[]) and
 * constant built-ins (NULL name ends a table) */
enum { DCC_PM_BUILTIN, DCC_PM_CONST, DCC_PM_NOCONV, DCC_PM_UNSUP,
       DCC_PM_FIELD,    /* a field of the thread's, process's or CPU's word: val DCC_F_* */
       DCC_PM_INFO,     /* the engine's lookup by who: val a DPR_* member (d/dprinfo.h) */
       DCC_PM_STR };    /* the same, a string: val a DPRS_* member */
enum { DCC_F_WHO, DCC_F_TID, DCC_F_PID, DCC_F_PRI, DCC_F_CPU };
struct dcc_procmember {
    const char *name;
    uint8_t how;        /* DCC_PM_* */
    uint64_t val;       /* the DIF_B_* id, the constant, the field or the member */
    struct dtype type;
};
const struct dcc_procmember *dcc_procinfo(const char *var, const char **type_name);
const struct dcc_procmember *dcc_builtin_const(const char *name);
/* args[k]'s translated type on probe id: DCC_ARG_* (0: an integer, argk itself) */
enum { DCC_ARG_LWP = 'L',   /* lwpsinfo_t of the thread whose who is arg0 */
       DCC_ARG_PS = 'P',    /* psinfo_t of that thread's process */
       DCC_ARG_PSPID = 'p', /* psinfo_t of the process whose pid is arg0 */
       DCC_ARG_CPU = 'C',   /* cpuinfo_t of the CPU in arg3 */
       DCC_ARG_STR = 's' }; /* a string at the address in arg0 */
char dcc_probe_argkind(uint32_t id, unsigned k);
const struct dcc_procmember *dcc_argkind_members(char kind, const char **type_name);
/* ctypes.c: <sys/types.h> integer type names (uchar_t, ulong_t, hrtime_t...) */
int dcc_ctype(const char *name, struct dtype *t);

#endif
