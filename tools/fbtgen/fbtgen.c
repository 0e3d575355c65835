// SPDX-License-Identifier: MIT
// fbtgen: the fbt table (d/dfbt.h) of a linked kernel image, for the image's second link
// (docs/fbt.md). Reads the first link's ELF file (libelf: symbols, ARM mapping symbols, the
// text's bytes; libdw: each function's source file, its arguments' types and places), decides
// for every kernel function whether its entry and its returns can be probed (the rules file
// kernel/fbt.rules, then what its instructions allow), and writes the table with the
// out-of-line code of every site, for the address the table will have in the second link.
//
//   fbtgen --rules kernel/fbt.rules -o TABLE.bin [--list] PASS1.elf
//   fbtgen --check PASS1.elf FINAL.elf      the second link's text equals the first's
//   fbtgen --insns PASS1.elf                every instruction's address, length and class
#define _GNU_SOURCE
#include <kevhost/fbt_insn.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <trace/kev_bytes.h>

#define TABLE_SECTION ".fbt"
#define TABLE_SYMBOL  "__fbt_start"

static const char *prog = "fbtgen";

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void *xcalloc(size_t n, size_t s)
{
    void *p = calloc(n ? n : 1, s);
    if (!p)
        die("out of memory");
    return p;
}

/* ---- the image ----------------------------------------------------------------------------- */

struct sect {
    char name[32];
    uint64_t addr, size;
    uint64_t flags;
    const uint8_t *data;   // NULL for NOBITS
};

struct image {
    const char *path;
    int fd;
    Elf *elf;
    Dwarf *dw;
    unsigned machine, elfclass;
    struct sect *sects;
    size_t nsects;
    uint64_t table_addr;   // TABLE_SYMBOL
    int have_table;
};

static struct image img;   // the image fbtgen reads (one per run; --check reads two)

static void image_open(struct image *im, const char *path)
{
    im->path = path;
    im->fd = open(path, O_RDONLY);
    if (im->fd < 0)
        die("%s: %s", path, strerror(errno));
    elf_version(EV_CURRENT);
    im->elf = elf_begin(im->fd, ELF_C_READ_MMAP, NULL);
    GElf_Ehdr eh;
    if (!im->elf || !gelf_getehdr(im->elf, &eh))
        die("%s: not an ELF file", path);
    im->machine = eh.e_machine;
    im->elfclass = gelf_getclass(im->elf);
    size_t shstrndx, n;
    elf_getshdrstrndx(im->elf, &shstrndx);
    elf_getshdrnum(im->elf, &n);
    im->sects = xcalloc(n, sizeof(*im->sects));
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(im->elf, scn));) {
        GElf_Shdr sh;
        gelf_getshdr(scn, &sh);
        if (!(sh.sh_flags & SHF_ALLOC))
            continue;
        struct sect *s = &im->sects[im->nsects++];
        snprintf(s->name, sizeof(s->name), "%s", elf_strptr(im->elf, shstrndx, sh.sh_name));
        s->addr = sh.sh_addr;
        s->size = sh.sh_size;
        s->flags = sh.sh_flags;
        if (sh.sh_type != SHT_NOBITS) {
            Elf_Data *d = elf_rawdata(scn, NULL);
            s->data = d ? d->d_buf : NULL;
        }
    }
}

static const struct sect *sect_named(const struct image *im, const char *name)
{
    for (size_t i = 0; i < im->nsects; i++)
        if (!strcmp(im->sects[i].name, name))
            return &im->sects[i];
    return NULL;
}

static int image_read(uint64_t addr, void *dst, size_t n)
{
    for (size_t i = 0; i < img.nsects; i++) {
        const struct sect *s = &img.sects[i];
        if (s->data && addr >= s->addr && addr - s->addr <= s->size &&
            s->size - (addr - s->addr) >= n) {
            memcpy(dst, s->data + (addr - s->addr), n);
            return 0;
        }
    }
    return -1;
}

/* ---- symbols ------------------------------------------------------------------------------- */

struct func {
    uint64_t addr, size;
    char *name;
    char cu[160];             // source file (its DWARF compile unit's name), "" if none
    unsigned rule_why;        // a rule's reason (DFBT_OK: none)
    int tree;                 // a `tree` rule's function, or one they reach: its calls too
    int callee_of;            // reached from that function's tree (-1: not)
    unsigned insn_entry_why, insn_return_why;   // what its instructions allow
    char insn_why[48];        // the instruction behind insn_*_why
    unsigned entry_why, return_why;             // the decision
    uint64_t *calls;          // direct call and tail-call targets
    unsigned ncalls;
    uint64_t indirect_at;     // an indirect call or jump (its address), 0 if none
    uint64_t exit_addr[64];   // its exits, and where each one's return address is
    unsigned exit_ra[64], nexits;   // (DFBT_RA_*, EXIT_TAIL for a tail call)
    unsigned nargs, ret_type;
    uint8_t arg_type[DFBT_MAXARGS], arg_loc[DFBT_MAXARGS], arg_hi[DFBT_MAXARGS];
    uint64_t site_addr[64];   // the sites: the entry's (if probeable), then the returns'
    uint8_t site_kind[64], site_ra[64];
    unsigned nsites;
};
#define EXIT_TAIL 0x100u

struct mapsym {
    uint64_t addr;
    int data;   // $d: data from here to the next mapping symbol
};

static struct func *funcs;
static size_t nfuncs;
static struct mapsym *maps;
static size_t nmaps;
static const struct fbt_isa *isa;

static int cmp_func(const void *a, const void *b)
{
    const struct func *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int cmp_map(const void *a, const void *b)
{
    const struct mapsym *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int in_text(uint64_t addr)
{
    for (size_t i = 0; i < img.nsects; i++) {
        const struct sect *s = &img.sects[i];
        if ((s->flags & SHF_EXECINSTR) && s->data && strcmp(s->name, TABLE_SECTION) &&
            addr >= s->addr && addr - s->addr < s->size)
            return 1;
    }
    return 0;
}

static void load_symbols(void)
{
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(img.elf, scn));) {
        GElf_Shdr sh;
        gelf_getshdr(scn, &sh);
        if (sh.sh_type != SHT_SYMTAB)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t n = sh.sh_size / sh.sh_entsize;
        funcs = xcalloc(n, sizeof(*funcs));
        maps = xcalloc(n, sizeof(*maps));
        for (size_t i = 0; i < n; i++) {
            GElf_Sym sym;
            gelf_getsym(d, (int)i, &sym);
            const char *name = elf_strptr(img.elf, sh.sh_link, sym.st_name);
            if (!name)
                continue;
            if (!strcmp(name, TABLE_SYMBOL)) {
                img.table_addr = sym.st_value;
                img.have_table = 1;
            }
            if (name[0] == '$' && (name[1] == 'd' || name[1] == 't' || name[1] == 'a' ||
                                   name[1] == 'x') && (name[2] == 0 || name[2] == '.')) {
                maps[nmaps].addr = sym.st_value;
                maps[nmaps++].data = name[1] == 'd';
                continue;
            }
            if (GELF_ST_TYPE(sym.st_info) != STT_FUNC)
                continue;   // (a function without a size, from assembly: sized below)
            uint64_t addr = sym.st_value & (isa->arch == DFBT_ARCH_THUMB2 ? ~1ull : ~0ull);
            if (!in_text(addr))
                continue;
            struct func *f = &funcs[nfuncs++];
            f->addr = addr;
            f->size = sym.st_size;
            f->name = strdup(name);
            f->callee_of = -1;
        }
    }
    qsort(funcs, nfuncs, sizeof(*funcs), cmp_func);
    // aliases (two names, one address): the first sized name in order stands for the code
    size_t k = 0;
    for (size_t i = 0; i < nfuncs; i++)
        if (!k || funcs[i].addr != funcs[k - 1].addr) {
            funcs[k++] = funcs[i];
        } else {
            if (!funcs[k - 1].size && funcs[i].size) {
                free(funcs[k - 1].name);
                funcs[k - 1] = funcs[i];
            } else {
                free(funcs[i].name);
            }
        }
    nfuncs = k;
    // an assembly function with no size (libgcc's __aeabi_uldivmod): up to the next one, so
    // that the calls it makes are seen; its instructions decide whether it can be probed
    for (size_t i = 0; i < nfuncs; i++) {
        if (funcs[i].size)
            continue;
        uint64_t end = i + 1 < nfuncs ? funcs[i + 1].addr : funcs[i].addr;
        for (size_t j = 0; j < img.nsects; j++) {
            const struct sect *sc = &img.sects[j];
            if ((sc->flags & SHF_EXECINSTR) && funcs[i].addr >= sc->addr &&
                funcs[i].addr < sc->addr + sc->size && sc->addr + sc->size < end)
                end = sc->addr + sc->size;
        }
        funcs[i].size = end > funcs[i].addr ? end - funcs[i].addr : 0;
    }
    k = 0;
    for (size_t i = 0; i < nfuncs; i++)
        if (funcs[i].size)
            funcs[k++] = funcs[i];
        else
            free(funcs[i].name);
    nfuncs = k;
    if (nfuncs >= DFBT_MAXFUNCS)
        die("%zu functions: the table holds at most %u", nfuncs, DFBT_MAXFUNCS - 1u);
    qsort(maps, nmaps, sizeof(*maps), cmp_map);
}

// The number of entries of a sorted array whose address is at or below addr (addr_of(i): entry
// i's): the one holding addr is the last of them.
static size_t at_or_below(size_t n, uint64_t (*addr_of)(size_t), uint64_t addr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (addr_of(mid) <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint64_t func_addr(size_t i) { return funcs[i].addr; }
static uint64_t map_addr(size_t i) { return maps[i].addr; }

static int func_at(uint64_t addr)
{
    size_t lo = at_or_below(nfuncs, func_addr, addr);
    if (!lo || addr - funcs[lo - 1].addr >= funcs[lo - 1].size)
        return -1;
    return (int)(lo - 1);
}

// Whether addr lies in data placed inside code (an ARM $d run); *end: where it ends.
static int in_data(uint64_t addr, uint64_t *end)
{
    size_t lo = at_or_below(nmaps, map_addr, addr);
    if (!lo || !maps[lo - 1].data)
        return 0;
    *end = lo < nmaps ? maps[lo].addr : UINT64_MAX;
    return 1;
}

/* ---- DWARF: source files, argument types and places ---------------------------------------- */

static unsigned word_bytes(void)
{
    return isa->arch == DFBT_ARCH_A64 ? 8u : 4u;
}

// Type code (DFBT_T_*) of a type DIE; *bytes its size (aggregates included), *align its
// alignment as the argument-passing rules see it.
static unsigned type_code(Dwarf_Die *type, uint64_t *bytes, unsigned *align)
{
    Dwarf_Die t;
    *bytes = 0;
    *align = 4;
    if (dwarf_peel_type(type, &t) != 0)
        return DFBT_T_NONE;
    Dwarf_Attribute a;
    Dwarf_Word w = 0, enc = 0;
    switch (dwarf_tag(&t)) {
    case DW_TAG_pointer_type: case DW_TAG_reference_type:
        *bytes = word_bytes();
        *align = word_bytes();
        return DFBT_T_PTR | word_bytes();
    case DW_TAG_base_type: case DW_TAG_enumeration_type: {
        if (dwarf_attr(&t, DW_AT_byte_size, &a))
            dwarf_formudata(&a, &w);
        *bytes = w;
        *align = w >= 8 ? 8u : 4u;
        if (w != 1 && w != 2 && w != 4 && w != 8)
            return DFBT_T_NONE;
        if (dwarf_tag(&t) == DW_TAG_enumeration_type) {
            Dwarf_Die under;   // the enum's underlying type, when the compiler says it
            if (dwarf_attr(&t, DW_AT_type, &a) && dwarf_formref_die(&a, &under)) {
                uint64_t b2;
                unsigned a2;
                return type_code(&under, &b2, &a2);
            }
            return (unsigned)w;
        }
        if (dwarf_attr(&t, DW_AT_encoding, &a))
            dwarf_formudata(&a, &enc);
        if (enc == DW_ATE_boolean)
            return DFBT_T_BOOL | (unsigned)w;
        if (enc == DW_ATE_signed || enc == DW_ATE_signed_char)
            return DFBT_T_SIGNED | (unsigned)w;
        if (enc == DW_ATE_unsigned || enc == DW_ATE_unsigned_char || enc == DW_ATE_UTF)
            return (unsigned)w;
        return DFBT_T_NONE;   // floating point: not in this kernel
    }
    default: {   // struct, union, array passed by value: no D type
        Dwarf_Word sz = 0;
        if (dwarf_aggregate_size(&t, &sz) == 0)
            *bytes = sz;
        *align = sz >= 8 ? 8u : 4u;
        return DFBT_T_NONE;
    }
    }
}

// The place a parameter's DWARF location gives at address pc: 0 with *lo, *hi set, or -1.
static int dw_param_place(Dwarf_Die *param, uint64_t pc, unsigned size, uint8_t *lo, uint8_t *hi)
{
    Dwarf_Attribute a;
    Dwarf_Op *ops;
    size_t nops;
    if (!dwarf_attr_integrate(param, DW_AT_location, &a) ||
        dwarf_getlocation_addr(&a, pc, &ops, &nops, 1) != 1 || !nops)
        return -1;
    uint8_t place[2] = { DFBT_LOC_NONE, DFBT_LOC_NONE };
    unsigned np = 0;
    for (size_t i = 0; i < nops && np < 2; i++) {
        unsigned op = ops[i].atom;
        if (op >= DW_OP_reg0 && op <= DW_OP_reg31) {
            place[np++] = (uint8_t)(DFBT_LOC_REG + (op - DW_OP_reg0));
        } else if (op == DW_OP_regx && ops[i].number < 0x40) {
            place[np++] = (uint8_t)(DFBT_LOC_REG + ops[i].number);
        } else if (op == DW_OP_fbreg) {
            // the frame base is the canonical frame address in this kernel (checked by the
            // caller): stack word k is at CFA + k words
            int64_t off = (int64_t)ops[i].number;
            if (off < 0 || off % (int64_t)word_bytes() || off / word_bytes() > 0x3e)
                return -1;
            place[np++] = (uint8_t)(DFBT_LOC_STACK + off / word_bytes());
            if (size > 4 && word_bytes() == 4 && np == 1 && nops == 1)
                place[np++] = (uint8_t)(place[0] + 1);
        } else if (op == DW_OP_piece) {
            continue;
        } else {
            return -1;   // an entry value, a computed place: not one the kernel reads
        }
    }
    if (!np || (size > word_bytes() && np < 2))
        return -1;
    *lo = place[0];
    *hi = np > 1 ? place[1] : DFBT_LOC_NONE;
    return 0;
}

// Whether a subprogram's frame base is the canonical frame address (GCC's choice on every
// target here), which dw_param_place's stack words assume.
static int frame_base_is_cfa(Dwarf_Die *sub)
{
    Dwarf_Attribute a;
    Dwarf_Op *ops;
    size_t n;
    if (!dwarf_attr_integrate(sub, DW_AT_frame_base, &a) || dwarf_getlocation(&a, &ops, &n) != 0)
        return 0;
    return n == 1 && ops[0].atom == DW_OP_call_frame_cfa;
}

// The calling convention's place for argument k's words (when DWARF says none): AAPCS's
// r0-r3 then the stack, AAPCS64's x0-x7, i386's stack. *w: the next free argument word.
static void abi_place(unsigned *w, uint64_t bytes, unsigned align, int aggregate, uint8_t *lo,
                      uint8_t *hi)
{
    unsigned ws = word_bytes(), nregs = isa->arch == DFBT_ARCH_THUMB2 ? 4u
                                      : isa->arch == DFBT_ARCH_A64 ? 8u : 0u;
    unsigned words = (unsigned)((bytes + ws - 1) / ws);
    if (!words)
        words = 1;
    if (isa->arch == DFBT_ARCH_A64 && aggregate && bytes > 16)
        words = 1;   // passed by reference
    if (align > ws && (*w & 1u) && isa->arch == DFBT_ARCH_THUMB2)
        (*w)++;
    if (*w < nregs && *w + words > nregs && (!aggregate || isa->arch == DFBT_ARCH_A64))
        *w = nregs;   // does not fit the registers left: on the stack, and all after it
    unsigned at = *w;
    *lo = at < nregs ? (uint8_t)(DFBT_LOC_REG + at) : (uint8_t)(DFBT_LOC_STACK + at - nregs);
    *hi = DFBT_LOC_NONE;
    if (words > 1 && !aggregate) {
        unsigned h = at + 1;
        *hi = h < nregs ? (uint8_t)(DFBT_LOC_REG + h) : (uint8_t)(DFBT_LOC_STACK + h - nregs);
    }
    *w += words;
}

static int find_subprogram(Dwarf_Die *cu, uint64_t addr, Dwarf_Die *out)
{
    Dwarf_Die c;
    if (dwarf_child(cu, &c) != 0)
        return -1;
    do {
        Dwarf_Addr lo;
        if (dwarf_tag(&c) == DW_TAG_subprogram && dwarf_lowpc(&c, &lo) == 0 && lo == addr) {
            *out = c;
            return 0;
        }
    } while (dwarf_siblingof(&c, &c) == 0);
    return -1;
}

static void load_dwarf_of(struct func *f)
{
    Dwarf_Die cu, sub;
    if (!img.dw || !dwarf_addrdie(img.dw, f->addr, &cu))
        return;
    const char *name = dwarf_diename(&cu);
    snprintf(f->cu, sizeof(f->cu), "%s", name ? name : "");
    if (find_subprogram(&cu, f->addr, &sub) != 0)
        return;
    uint64_t bytes;
    unsigned align;
    Dwarf_Attribute a;
    Dwarf_Die t;
    int ret_aggregate = 0;
    if (dwarf_attr_integrate(&sub, DW_AT_type, &a) && dwarf_formref_die(&a, &t)) {
        f->ret_type = type_code(&t, &bytes, &align);
        ret_aggregate = f->ret_type == DFBT_T_NONE && bytes > 0;
    }
    // a clone (name.constprop.0, .isra.0, .part.0) takes the arguments DWARF says it has,
    // where DWARF says; an ordinary function takes them by the calling convention where
    // DWARF says nothing (an argument it never uses still arrives)
    int clone = strchr(f->name, '.') != NULL;
    int cfa = frame_base_is_cfa(&sub);
    unsigned w = 0;
    if (ret_aggregate && isa->arch != DFBT_ARCH_A64 &&
        (isa->arch == DFBT_ARCH_I386 || bytes > 4))
        w = 1;   // the hidden pointer to the result comes first
    Dwarf_Die p;
    if (dwarf_child(&sub, &p) != 0)
        return;
    do {
        int tag = dwarf_tag(&p);
        if (tag == DW_TAG_unspecified_parameters)
            break;   // varargs: the rest has no type
        if (tag != DW_TAG_formal_parameter)
            continue;
        if (f->nargs == DFBT_MAXARGS)
            break;
        unsigned code = DFBT_T_NONE;
        bytes = word_bytes();
        align = 4;
        if (dwarf_attr_integrate(&p, DW_AT_type, &a) && dwarf_formref_die(&a, &t))
            code = type_code(&t, &bytes, &align);
        unsigned k = f->nargs++;
        uint8_t lo = DFBT_LOC_NONE, hi = DFBT_LOC_NONE, alo, ahi;
        abi_place(&w, bytes, align, code == DFBT_T_NONE, &alo, &ahi);
        unsigned size = code == DFBT_T_NONE ? 0 : DFBT_T_SIZE(code);
        if (!(cfa && dw_param_place(&p, f->addr, size ? size : 4, &lo, &hi) == 0) &&
            !clone && isa->arch != DFBT_ARCH_I386) {
            lo = alo;
            hi = ahi;
        }
        f->arg_type[k] = (uint8_t)code;
        f->arg_loc[k] = lo;
        f->arg_hi[k] = hi;
    } while (dwarf_siblingof(&p, &p) == 0);
}

/* ---- rules --------------------------------------------------------------------------------- */

struct rule {
    int tree;           // 1: the matching functions and everything they call
    unsigned why;       // DFBT_WHY_*
    int by_name;        // pattern is fn:GLOB (a function's name) rather than a source file
    char pattern[160];
};

static struct rule *rules;
static size_t nrules;

static void load_rules(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        die("%s: %s", path, strerror(errno));
    static const struct { const char *name; unsigned why; } whys[] = {
        { "entry", DFBT_WHY_ENTRY_PATH }, { "probe", DFBT_WHY_PROBE_PATH },
        { "ring", DFBT_WHY_RING }, { "lock", DFBT_WHY_LOCK }, { "boot", DFBT_WHY_BOOT },
        { "notrap", DFBT_WHY_NOTRAP },
    };
    char line[512];
    unsigned lineno = 0;
    size_t cap = 0;
    while (fgets(line, sizeof(line), fp)) {
        lineno++;
        char *h = strchr(line, '#');
        if (h)
            *h = 0;
        char scope[16], why[16], pat[150];
        int n = sscanf(line, "%15s %15s %149s", scope, why, pat);
        if (n <= 0)
            continue;
        if (n != 3 || (strcmp(scope, "file") && strcmp(scope, "tree")))
            die("%s:%u: expected `file|tree WHY PATTERN`", path, lineno);
        if (nrules == cap)
            rules = realloc(rules, (cap = cap ? 2 * cap : 64) * sizeof(*rules));
        struct rule *r = &rules[nrules];
        memset(r, 0, sizeof(*r));
        r->tree = scope[0] == 't';
        r->why = DFBT_WHY_COUNT;
        for (size_t k = 0; k < sizeof(whys) / sizeof(whys[0]); k++)
            if (!strcmp(why, whys[k].name))
                r->why = whys[k].why;
        if (r->why == DFBT_WHY_COUNT)
            die("%s:%u: unknown reason `%s` (entry, probe, ring, lock, boot, notrap)", path,
                lineno, why);
        r->by_name = !strncmp(pat, "fn:", 3);
        snprintf(r->pattern, sizeof(r->pattern), "%s", r->by_name ? pat + 3 : pat);
        nrules++;
    }
    fclose(fp);
}

static void apply_rules(void)
{
    for (size_t i = 0; i < nfuncs; i++) {
        struct func *f = &funcs[i];
        for (size_t k = 0; k < nrules; k++) {
            const struct rule *r = &rules[k];
            const char *s = r->by_name ? f->name : f->cu;
            if (!s[0] || fnmatch(r->pattern, s, 0) != 0)
                continue;
            if (f->rule_why == DFBT_OK)
                f->rule_why = r->why;
            f->tree |= r->tree;
        }
    }
}

/* ---- each function's instructions --------------------------------------------------------- */

static void add_call(struct func *f, uint64_t target)
{
    if (f->ncalls % 16 == 0)
        f->calls = realloc(f->calls, (f->ncalls + 16) * sizeof(*f->calls));
    f->calls[f->ncalls++] = target;
}

static void refuse(struct func *f, unsigned *why, unsigned code, const struct insn *in,
                   uint64_t at)
{
    if (*why != DFBT_OK)
        return;
    *why = code;
    snprintf(f->insn_why, sizeof(f->insn_why), "%s at +0x%" PRIx64,
             in && in->what[0] ? in->what : "?", at - f->addr);
}

static const char *class_name(enum insn_class c)
{
    static const char *const names[] = {
        [I_OTHER] = "other", [I_RET] = "ret", [I_BRANCH] = "branch", [I_CBRANCH] = "cbranch",
        [I_CALL] = "call", [I_ICALL] = "icall", [I_IJUMP] = "ijump", [I_JTAB] = "jtab",
        [I_PCREL] = "pcrel", [I_IT] = "it", [I_TRAP] = "trap", [I_BAD] = "bad",
    };
    return c <= I_BAD ? names[c] : "?";
}

// f's entry: its first instruction (first) must be one a slot can stand for, run out of line.
static void entry_check(struct func *f, const struct insn *first)
{
    uint8_t code[16], slot[DFBT_SLOT_BYTES];
    const char *why = "";
    size_t avail = f->size < sizeof(code) ? (size_t)f->size : sizeof(code);
    image_read(f->addr, code, avail);
    if (first->cls == I_IT || first->cls == I_JTAB || first->cls == I_TRAP) {
        refuse(f, &f->insn_entry_why, DFBT_WHY_INSN, first, f->addr);
    } else if (isa->slot(code, first, f->addr, img.table_addr, image_read, slot, &why) < 0) {
        refuse(f, &f->insn_entry_why, DFBT_WHY_INSN, first, f->addr);
        snprintf(f->insn_why, sizeof(f->insn_why), "%s", why);
    }
}

// An exit of f at pc (a return, or a jump out of it: a tail call), its return address where
// ra says; refused past the room for exits.
static void add_exit(struct func *f, const struct insn *in, uint64_t pc, unsigned ra)
{
    if (f->nexits == sizeof(f->exit_addr) / sizeof(f->exit_addr[0])) {
        refuse(f, &f->insn_return_why, DFBT_WHY_EXIT, in, pc);
        snprintf(f->insn_why, sizeof(f->insn_why), "more than %u exits", f->nexits);
        return;
    }
    f->exit_ra[f->nexits] = ra;
    f->exit_addr[f->nexits++] = pc;
}

// What instruction in at pc tells of f: a call (for the rules' trees), an indirect call or
// jump, a branch back to its entry, an exit, or an exit that cannot be replaced (conditional:
// in an IT block).
static void take_insn(struct func *f, const struct insn *in, uint64_t pc, int conditional)
{
    int outside = in->target < f->addr || in->target >= f->addr + f->size;
    switch (in->cls) {
    case I_CALL:
        add_call(f, in->target);
        return;
    case I_ICALL:
        if (!f->indirect_at)
            f->indirect_at = pc;
        return;
    case I_BRANCH: case I_CBRANCH:
        if (!outside) {
            if (in->target == f->addr)
                refuse(f, &f->insn_entry_why, DFBT_WHY_LOOP, in, pc);
            return;
        }
        add_call(f, in->target);   // a tail call
        if (in->cls == I_CBRANCH || conditional)
            refuse(f, &f->insn_return_why, DFBT_WHY_EXIT, in, pc);
        else
            add_exit(f, in, pc, EXIT_TAIL | DFBT_RA_LR);
        return;
    case I_RET: case I_IJUMP:
        if (in->cls == I_IJUMP && !f->indirect_at)
            f->indirect_at = pc;
        if (conditional || in->unsure)
            refuse(f, &f->insn_return_why, DFBT_WHY_EXIT, in, pc);
        else
            add_exit(f, in, pc, in->cls == I_RET ? in->ra : EXIT_TAIL | DFBT_RA_LR);
        return;
    default:
        return;
    }
}

// What f's shape refuses once its instructions are read: an entry no instruction stands at, a
// GCC name.cold part, a function that never returns.
static void refuse_by_shape(struct func *f, int have_first)
{
    if (!have_first)
        refuse(f, &f->insn_entry_why, DFBT_WHY_NODATA, NULL, f->addr);
    // GCC's name.cold: the rarely run part of a function, placed apart and entered by a jump
    // (its "entry" has no caller's return address, and its returns are its function's, whose
    // jump into it stands for them: a tail call's return)
    if (strstr(f->name, ".cold")) {
        refuse(f, &f->insn_entry_why, DFBT_WHY_PART, NULL, f->addr);
        refuse(f, &f->insn_return_why, DFBT_WHY_PART, NULL, f->addr);
    }
    if (!f->nexits)
        refuse(f, &f->insn_return_why, DFBT_WHY_NORETURN, NULL, f->addr);
}

// Decodes f's instructions: its calls (for the rules' trees), whether its first instruction
// can run out of line, and its exits (or why one cannot be replaced).
static void analyse(struct func *f, int list_insns)
{
    uint64_t end = f->addr + f->size;
    uint8_t buf[16];
    unsigned it_left = 0;
    struct insn first = { 0 };
    int have_first = 0;
    for (uint64_t pc = f->addr; pc < end;) {
        uint64_t dend;
        if (in_data(pc, &dend)) {
            if (pc == f->addr)
                refuse(f, &f->insn_entry_why, DFBT_WHY_NODATA, NULL, pc);
            pc = dend > pc ? dend : end;
            continue;
        }
        size_t avail = end - pc < sizeof(buf) ? (size_t)(end - pc) : sizeof(buf);
        struct insn in;
        if (image_read(pc, buf, avail) != 0 || isa->decode(buf, avail, pc, &in) != 0 ||
            in.cls == I_BAD) {
            if (list_insns)
                printf("%08" PRIx64 " %u bad 0 %s\n", pc, in.len, f->name);
            // its branches cannot all be seen: neither its entry nor its returns
            refuse(f, &f->insn_entry_why, DFBT_WHY_INSN, &in, pc);
            refuse(f, &f->insn_return_why, DFBT_WHY_EXIT, &in, pc);
            break;
        }
        if (list_insns)
            printf("%08" PRIx64 " %u %s %08" PRIx64 " %s\n", pc, in.len, class_name(in.cls),
                   in.target, f->name);
        int conditional = it_left > 0;
        if (it_left)
            it_left--;
        if (pc == f->addr) {
            first = in;
            have_first = 1;
        }
        if (in.cls == I_IT)
            it_left = in.it;
        else
            take_insn(f, &in, pc, conditional);
        pc += in.len;
    }
    refuse_by_shape(f, have_first);
    if (list_insns || f->insn_entry_why != DFBT_OK)
        return;
    entry_check(f, &first);
}

// The trees: what a `tree` rule's functions call, directly, cannot be probed either, nor what
// that calls. Breadth first, so each function names its nearest excluded caller.
static void close_trees(int warn)
{
    int *queue = xcalloc(nfuncs, sizeof(int));
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < nfuncs; i++)
        if (funcs[i].tree)
            queue[tail++] = (int)i;
    while (head < tail) {
        struct func *f = &funcs[queue[head++]];
        if (warn && f->indirect_at)
            fprintf(stderr, "%s: note: %s (not probeable) makes an indirect call or jump at "
                    "+0x%" PRIx64 ": its targets are not followed (fn: rules name them)\n",
                    prog, f->name, f->indirect_at - f->addr);
        for (unsigned c = 0; c < f->ncalls; c++) {
            int g = func_at(f->calls[c]);
            if (g < 0 || funcs[g].tree)
                continue;
            funcs[g].tree = 1;
            funcs[g].callee_of = (int)(f - funcs);
            queue[tail++] = g;
        }
    }
    free(queue);
}

static void add_site(struct func *f, uint64_t at, unsigned kind, unsigned ra)
{
    if (f->nsites && f->site_addr[f->nsites - 1] == at) {   // an entry that also leaves
        f->site_kind[f->nsites - 1] |= (uint8_t)kind;
        f->site_ra[f->nsites - 1] = (uint8_t)ra;
        return;
    }
    f->site_addr[f->nsites] = at;
    f->site_kind[f->nsites] = (uint8_t)kind;
    f->site_ra[f->nsites] = (uint8_t)ra;
    f->nsites++;
}

// The decision: a rule's reason first, then a tree's, then the instructions'.
static void decide(struct func *f)
{
    f->entry_why = f->rule_why ? f->rule_why : f->callee_of >= 0 ? DFBT_WHY_CALLEE
                                             : f->insn_entry_why;
    f->return_why = f->rule_why ? f->rule_why : f->callee_of >= 0 ? DFBT_WHY_CALLEE
                                              : f->insn_return_why;
    if (f->entry_why == DFBT_OK)
        add_site(f, f->addr, DFBT_S_ENTRY, DFBT_RA_LR);
    if (f->return_why == DFBT_OK)
        for (unsigned k = 0; k < f->nexits; k++)
            add_site(f, f->exit_addr[k],
                     DFBT_S_RETURN | (f->exit_ra[k] & EXIT_TAIL ? DFBT_S_TAIL : 0u),
                     f->exit_ra[k] & 0xffu);
}

/* ---- the table ----------------------------------------------------------------------------- */

struct out {
    uint8_t *buf;
    size_t len, cap;
};

static size_t out_put(struct out *o, const void *p, size_t n)
{
    if (o->len + n > o->cap) {
        o->cap = (o->len + n) * 2 + 4096;
        o->buf = realloc(o->buf, o->cap);
        if (!o->buf)
            die("out of memory");
    }
    size_t at = o->len;
    if (p)
        memcpy(o->buf + at, p, n);
    else
        memset(o->buf + at, 0, n);
    o->len += n;
    return at;
}

static void out_align(struct out *o, size_t a)
{
    while (o->len % a)
        out_put(o, NULL, 1);
}

// The table as assembler source for the image's second link (kernel.ld.S's .fbt section):
// the description and the sites as data, each slot's instructions as instructions (.inst),
// so that the assembler's mapping symbols ($t, $x, $d) tell the disassemblers (objdump,
// gdb) which bytes are code.
static void write_asm(const char *path, const uint8_t *b, size_t len, size_t slots_off,
                      const uint8_t *code_len, size_t nslots)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        die("%s: %s", path, strerror(errno));
    fprintf(fp, "/* the fbt table of %s, written by fbtgen (docs/fbt.md) */\n"
                "    .section .fbt, \"ax\"\n    .balign 16\n", img.path);
    if (isa->arch == DFBT_ARCH_THUMB2)
        fprintf(fp, "    .syntax unified\n    .thumb\n");
    // bytes [from, to) as data
    size_t at = 0;
#define DATA_TO(to) do { \
        for (; at < (to); at++) \
            fprintf(fp, "%s0x%02x%s", at % 16 == 0 || at == start ? "    .byte " : ", ", b[at], \
                    at % 16 == 15 || at + 1 == (to) ? "\n" : ""); \
    } while (0)
    size_t start = 0;
    DATA_TO(slots_off);
    for (size_t k = 0; k < nslots; k++) {
        size_t s0 = slots_off + k * DFBT_SLOT_BYTES, end = s0 + code_len[k];
        for (at = s0; at < end;) {
            if (isa->arch == DFBT_ARCH_THUMB2) {
                unsigned hw = kev_get_le16(b + at), top = hw >> 11;
                if ((top == 0x1d || top == 0x1e || top == 0x1f) && at + 4 <= end) {
                    fprintf(fp, "    .inst.w 0x%04x%02x%02x\n", hw, b[at + 3], b[at + 2]);
                    at += 4;
                } else {
                    fprintf(fp, "    .inst.n 0x%04x\n", hw);
                    at += 2;
                }
            } else if (isa->arch == DFBT_ARCH_A64) {
                fprintf(fp, "    .inst 0x%02x%02x%02x%02x\n", b[at + 3], b[at + 2], b[at + 1],
                        b[at]);
                at += 4;
            } else {
                fprintf(fp, "    .byte 0x%02x\n", b[at]);
                at++;
            }
        }
        start = at;
        DATA_TO(s0 + DFBT_SLOT_BYTES);
    }
    start = at;
    DATA_TO(len);
#undef DATA_TO
    if (fclose(fp) != 0)
        die("%s: %s", path, strerror(errno));
}

// --list: a line per function: its address, name, unit, whether its entry and return can be
// probed (why not), its arguments' types and places, its return type.
static void write_list(FILE *list)
{
    for (size_t i = 0; i < nfuncs; i++) {
        const struct func *f = &funcs[i];
        fprintf(list, "%08" PRIx64 " %-32s %-28s entry:%s return:%s", f->addr, f->name,
                f->cu[0] ? f->cu : "-", f->entry_why ? "no" : "yes",
                f->return_why ? "no" : "yes");
        if (f->entry_why || f->return_why) {
            unsigned w = f->entry_why ? f->entry_why : f->return_why;
            fprintf(list, " (%s%s%s%s%s)", dfbt_why_text(w),
                    f->insn_why[0] && (w == DFBT_WHY_INSN || w == DFBT_WHY_EXIT) ? ": " : "",
                    f->insn_why[0] && (w == DFBT_WHY_INSN || w == DFBT_WHY_EXIT) ? f->insn_why : "",
                    w == DFBT_WHY_CALLEE ? ": " : "",
                    w == DFBT_WHY_CALLEE ? funcs[f->callee_of].name : "");
            if (f->entry_why == DFBT_OK && f->return_why)
                fprintf(list, " [return]");
        }
        fprintf(list, " args:%u", f->nargs);
        for (unsigned k = 0; k < f->nargs; k++)
            fprintf(list, " %s@%02x/%02x", dfbt_type_name(f->arg_type[k])[0] ?
                    dfbt_type_name(f->arg_type[k]) : "?", f->arg_loc[k], f->arg_hi[k]);
        fprintf(list, " ret:%s\n", dfbt_type_name(f->ret_type));
    }
}

// The table's text range: from the lowest to the highest end of the image's code sections
// but the table's own.
static void text_range(struct dfbt_hdr *h)
{
    h->dh_text_lo = UINT32_MAX;
    for (size_t i = 0; i < img.nsects; i++) {
        const struct sect *s = &img.sects[i];
        if ((s->flags & SHF_EXECINSTR) && strcmp(s->name, TABLE_SECTION)) {
            if (s->addr < h->dh_text_lo)
                h->dh_text_lo = (uint32_t)s->addr;
            if (s->addr + s->size > h->dh_text_hi)
                h->dh_text_hi = (uint32_t)(s->addr + s->size);
        }
    }
}

// The table's layout in o: the header, room for the functions' records, their names (their
// offsets in *name_off), room for the sites' records and their slots; h says where each is.
// The number of sites.
static size_t lay_out(struct out *o, struct dfbt_hdr *h, uint32_t **name_off)
{
    h->dh_magic = DFBT_MAGIC;
    h->dh_version = DFBT_VERSION;
    h->dh_arch = isa->arch;
    h->dh_addr = (uint32_t)img.table_addr;
    h->dh_nfuncs = (uint32_t)nfuncs;
    out_put(o, h, sizeof(*h));
    h->dh_funcs_off = (uint32_t)o->len;
    out_put(o, NULL, nfuncs * sizeof(struct dfbt_func));
    h->dh_strs_off = (uint32_t)o->len;
    *name_off = xcalloc(nfuncs, sizeof(uint32_t));
    for (size_t i = 0; i < nfuncs; i++)
        (*name_off)[i] = (uint32_t)(out_put(o, funcs[i].name, strlen(funcs[i].name) + 1) -
                                    h->dh_strs_off);
    h->dh_strs_len = (uint32_t)o->len - h->dh_strs_off;
    out_align(o, 4);
    h->dh_desc_len = (uint32_t)o->len;
    h->dh_sites_off = (uint32_t)o->len;
    size_t nsites = 0;
    for (size_t i = 0; i < nfuncs; i++)
        nsites += funcs[i].nsites;
    h->dh_nsites = (uint32_t)nsites;
    out_put(o, NULL, nsites * sizeof(struct dfbt_site));
    out_align(o, 16);
    h->dh_slots_off = (uint32_t)o->len;
    h->dh_slots_len = (uint32_t)(nsites * DFBT_SLOT_BYTES);
    out_put(o, NULL, h->dh_slots_len);
    h->dh_len = (uint32_t)o->len;
    text_range(h);
    return nsites;
}

// Function f's record: where it is, its name, its first site, why it cannot be probed, its
// arguments' types and places.
static struct dfbt_func func_record(const struct func *f, uint32_t name_off, size_t site)
{
    struct dfbt_func df = { 0 };
    df.df_addr = (uint32_t)f->addr;
    df.df_size = (uint32_t)f->size;
    df.df_name = name_off;
    df.df_site = (uint32_t)site;
    df.df_nsites = (uint16_t)f->nsites;
    df.df_entry_why = (uint8_t)f->entry_why;
    df.df_return_why = (uint8_t)f->return_why;
    df.df_why_func = f->callee_of >= 0 ? (uint16_t)f->callee_of : 0;
    df.df_nargs = (uint8_t)f->nargs;
    df.df_ret_type = (uint8_t)f->ret_type;
    memcpy(df.df_arg_type, f->arg_type, sizeof(df.df_arg_type));
    memset(df.df_arg_loc, DFBT_LOC_NONE, sizeof(df.df_arg_loc));
    memset(df.df_arg_hi, DFBT_LOC_NONE, sizeof(df.df_arg_hi));
    memcpy(df.df_arg_loc, f->arg_loc, f->nargs);
    memcpy(df.df_arg_hi, f->arg_hi, f->nargs);
    return df;
}

// Site s, function i's site k: its record in o, its slot's out-of-line code written at the
// slot (dies when the instruction has none there), a --slots line; the code's length.
static uint8_t site_record(struct out *o, const struct dfbt_hdr *h, size_t i, unsigned k,
                           size_t s, FILE *slots)
{
    const struct func *f = &funcs[i];
    struct dfbt_site ds = { 0 };
    uint64_t slot_addr = img.table_addr + h->dh_slots_off + s * DFBT_SLOT_BYTES;
    ds.ds_addr = (uint32_t)f->site_addr[k];
    ds.ds_len = (uint8_t)isa->trap_len;
    image_read(f->site_addr[k], &ds.ds_orig, isa->trap_len);
    ds.ds_slot = (uint32_t)slot_addr;
    ds.ds_func = (uint16_t)i;
    ds.ds_kind = f->site_kind[k];
    ds.ds_ra = f->site_ra[k];
    uint8_t code[16];
    struct insn in;
    size_t avail = f->addr + f->size - f->site_addr[k];
    if (avail > sizeof(code))
        avail = sizeof(code);
    const char *why = "";
    int code_len = -1;
    if (image_read(f->site_addr[k], code, avail) != 0 ||
        isa->decode(code, avail, f->site_addr[k], &in) != 0 ||
        (code_len = isa->slot(code, &in, f->site_addr[k], slot_addr, image_read,
                              o->buf + h->dh_slots_off + s * DFBT_SLOT_BYTES, &why)) < 0)
        die("%s+0x%" PRIx64 ": no out-of-line code at the table's address: %s",
            f->name, f->site_addr[k] - f->addr, why);
    memcpy(o->buf + h->dh_sites_off + s * sizeof(ds), &ds, sizeof(ds));
    if (slots)
        fprintf(slots, "%08x %08x %u %u %s\n", ds.ds_addr, ds.ds_slot, ds.ds_kind, in.len,
                f->name);
    return (uint8_t)code_len;
}

static void write_table(const char *path, FILE *list, FILE *slots)
{
    struct out o = { 0 };
    struct dfbt_hdr h = { 0 };
    uint32_t *name_off;
    size_t nsites = lay_out(&o, &h, &name_off), s = 0;
    unsigned n_entry = 0, n_return = 0;
    uint8_t *slot_code = xcalloc(nsites, 1);
    for (size_t i = 0; i < nfuncs; i++) {
        const struct func *f = &funcs[i];
        struct dfbt_func df = func_record(f, name_off[i], s);
        memcpy(o.buf + h.dh_funcs_off + i * sizeof(df), &df, sizeof(df));
        n_entry += f->entry_why == DFBT_OK;
        n_return += f->return_why == DFBT_OK;
        for (unsigned k = 0; k < f->nsites; k++, s++)
            slot_code[s] = site_record(&o, &h, i, k, s, slots);
    }
    memcpy(o.buf, &h, sizeof(h));
    write_asm(path, o.buf, o.len, h.dh_slots_off, slot_code, nsites);
    free(slot_code);
    if (list)
        write_list(list);
    fprintf(stderr, "%s: %s: %zu functions, %u entries and %u returns probeable, %zu sites, "
            "%u bytes\n", prog, path, nfuncs, n_entry, n_return, nsites, (unsigned)o.len);
    free(name_off);
    free(o.buf);
}

/* ---- --check ------------------------------------------------------------------------------- */

// The second link must not move any code: every allocated section of the first link is in
// the second at the same address with the same bytes, except the table's own, which starts
// where it did and comes after every section of code, and the build id's (a hash of the
// image: same place and size, other bytes).
static int check(const char *p1, const char *p2)
{
    struct image a = { 0 }, b = { 0 };
    image_open(&a, p1);
    image_open(&b, p2);
    const struct sect *ta = sect_named(&a, TABLE_SECTION), *tb = sect_named(&b, TABLE_SECTION);
    if (!ta || !tb)
        die("%s: no %s section", ta ? p2 : p1, TABLE_SECTION);
    if (ta->addr != tb->addr)
        die("%s moved: 0x%" PRIx64 " in %s, 0x%" PRIx64 " in %s", TABLE_SECTION, ta->addr, p1,
            tb->addr, p2);
    unsigned n = 0;
    for (size_t i = 0; i < a.nsects; i++) {
        const struct sect *s = &a.sects[i], *t = sect_named(&b, s->name);
        if (s == ta)
            continue;
        if ((s->flags & SHF_EXECINSTR) && s->addr + s->size > ta->addr &&
            s->addr < ta->addr + 0x10000000ull)
            die("%s: section %s lies after the table", p1, s->name);
        if (!t || t->addr != s->addr || t->size != s->size)
            die("%s: section %s differs from %s's (address or size)", p2, s->name, p1);
        // the GNU build id is a hash of the whole image, the table included: its bytes change
        // with the table's, its place and size do not (checked above), and it holds no code
        if (s->data && t->data && memcmp(s->data, t->data, s->size) != 0 &&
            strcmp(s->name, ".note.gnu.build-id") != 0)
            die("%s: section %s's bytes differ from %s's", p2, s->name, p1);
        n++;
    }
    printf("%s: %u sections identical to the first link's; the table at 0x%" PRIx64 "\n", p2,
           n, tb->addr);
    return 0;
}

/* ---- main ---------------------------------------------------------------------------------- */

static void usage(FILE *fp)
{
    fprintf(fp, "usage: fbtgen --rules FILE -o TABLE [--list FILE] [--slots FILE] IMAGE.elf\n"
                "       fbtgen --check FIRST.elf SECOND.elf\n"
                "       fbtgen --insns IMAGE.elf\n"
                "Writes the fbt table of a linked kernel image (docs/fbt.md): which functions\n"
                "can be probed, their arguments' types and places, and each probe site's\n"
                "out-of-line code, for the image's second link. --check verifies that the\n"
                "second link moved no code; --insns lists every decoded instruction (address,\n"
                "length, class, target, function); --list writes each function's decision,\n"
                "--slots each site's address, slot address, kind and instruction length.\n");
}

int main(int argc, char **argv)
{
    const char *rules_path = NULL, *out = NULL, *list = NULL, *elf = NULL, *slots = NULL;
    int insns = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--check") && i + 2 < argc) {
            return check(argv[i + 1], argv[i + 2]);
        } else if (!strcmp(argv[i], "--rules") && i + 1 < argc) {
            rules_path = argv[++i];
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--list") && i + 1 < argc) {
            list = argv[++i];
        } else if (!strcmp(argv[i], "--slots") && i + 1 < argc) {
            slots = argv[++i];
        } else if (!strcmp(argv[i], "--insns")) {
            insns = 1;
        } else if (argv[i][0] != '-' && !elf) {
            elf = argv[i];
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (!elf || (!insns && (!out || !rules_path))) {
        usage(stderr);
        return 2;
    }
    image_open(&img, elf);
    switch (img.machine) {
    case EM_ARM: isa = &fbt_thumb2; break;
    case EM_AARCH64: isa = &fbt_a64; break;
    case EM_386: isa = &fbt_i386; break;
    default: die("%s: machine %u: no decoder", elf, img.machine);
    }
    load_symbols();
    if (!insns && !img.have_table)
        die("%s: no %s symbol (the linker script places the table)", elf, TABLE_SYMBOL);
    img.dw = dwarf_begin_elf(img.elf, DWARF_C_READ, NULL);
    if (!img.dw && !insns)
        die("%s: no DWARF (the kernel is built with -g)", elf);
    for (size_t i = 0; i < nfuncs; i++)
        load_dwarf_of(&funcs[i]);
    if (insns) {
        for (size_t i = 0; i < nfuncs; i++)
            analyse(&funcs[i], 1);
        return 0;
    }
    load_rules(rules_path);
    apply_rules();
    for (size_t i = 0; i < nfuncs; i++)
        analyse(&funcs[i], 0);
    close_trees(list != NULL);
    for (size_t i = 0; i < nfuncs; i++)
        decide(&funcs[i]);
    FILE *lf = NULL, *sf = NULL;
    if (list && !(lf = fopen(list, "w")))
        die("%s: %s", list, strerror(errno));
    if (slots && !(sf = fopen(slots, "w")))
        die("%s: %s", slots, strerror(errno));
    write_table(out, lf, sf);
    if (lf)
        fclose(lf);
    if (sf)
        fclose(sf);
    return 0;
}
