// SPDX-License-Identifier: MIT
// Reading programs' USDT notes and functions for the host tools (tool_usdt.h). A stapsdt note (type 3,
// owner "stapsdt") holds the site's address, the .stapsdt.base address the program was linked
// with, the semaphore's address (0: none), then the provider, the name and the arguments'
// places as NUL-terminated strings. A site's address is corrected by where .stapsdt.base
// really is, as gdb does for a prelinked file (here always the same).
#include <kevhost/tool_usdt.h>
#include <kevhost/tool_elf.h>
#include <kevhost/fbt_insn.h>
#include <d/dpid_a64.h>
#include <d/dpid_i386.h>
#include <d/dpid_thumb.h>
#include <d/dprobes.h>
#include <trace/kev_bytes.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STAPSDT_TYPE 3u

static struct dprobe_usdt sites[DPROBE_USDT_MAX];
static unsigned nsites;
static struct dprobe_pidfn fns[DPROBE_PID_MAX];
static unsigned nfns;

// n bytes of e's loaded code at addr; 0, or -1 when no section holds them all.
static int read_code(Elf *e, uint32_t addr, uint8_t *out, uint32_t n)
{
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
            !(sh.sh_flags & SHF_EXECINSTR) || addr < sh.sh_addr ||
            (uint64_t)addr + n > sh.sh_addr + sh.sh_size)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || d->d_size < sh.sh_size)
            return -1;
        memcpy(out, (const uint8_t *)d->d_buf + (addr - sh.sh_addr), n);
        return 0;
    }
    return -1;
}

// What the pid provider can displace, per instruction set (d/dpid_thumb.h, d/dpid_a64.h,
// d/dpid_i386.h):
// the decoder that finds a function's returns, whether a function's first instruction can be
// run for the thread (p: its bytes, avail of them in the function), and why a return cannot
// be probed (NULL: it can).
struct pid_isa {
    const struct fbt_isa *dec;
    int (*can_run)(const uint8_t *p, uint32_t avail);
    const char *(*ret_why)(const uint8_t *p, unsigned len);
};

static int thumb_can_run(const uint8_t *p, uint32_t avail)
{
    return dpid_thumb_can_run(kev_get_le16(p), avail >= 4 ? kev_get_le16(p + 2) : 0);
}

static const char *thumb_ret_why(const uint8_t *p, unsigned len)
{
    uint32_t hw1 = kev_get_le16(p), hw2 = len == 4 ? kev_get_le16(p + 2) : 0;
    if (!dpid_thumb_is_return(hw1, hw2))
        return "a return the kernel cannot run";
    if ((len == 2 && (hw1 & 0xfe01u) == 0xbc01u) || (len == 4 && hw1 == 0xe8bdu && (hw2 & 1u)))
        return "its return reloads r0, the return value";
    return NULL;
}

static int a64_can_run(const uint8_t *p, uint32_t avail)
{
    return avail >= 4 && dpid_a64_can_run(kev_get_le32(p));
}

static const char *a64_ret_why(const uint8_t *p, unsigned len)
{
    return len == 4 && dpid_a64_is_return(kev_get_le32(p)) ? NULL : "a return the kernel cannot run";
}

static int i386_can_run(const uint8_t *p, uint32_t avail)
{
    unsigned len;
    return dpid_i386_can_run(p, avail, &len);
}

static const char *i386_ret_why(const uint8_t *p, unsigned len)
{
    return dpid_i386_is_return(p, len) ? NULL : "a return the kernel cannot run";
}

static const struct pid_isa pid_thumb = { &fbt_thumb2, thumb_can_run, thumb_ret_why };
static const struct pid_isa pid_a64 = { &fbt_a64, a64_can_run, a64_ret_why };
static const struct pid_isa pid_i386 = { &fbt_i386, i386_can_run, i386_ret_why };

// The function fn's returns (docs/pid.md), by fbtgen's decoder for its instruction set over
// its bytes: every return instruction, or ret_why. Literal pools ($d mapping symbols up to the
// next $t, Thumb's) are not decoded. A return the kernel runs in place of the thread (Thumb:
// bx lr, pop or ldm of pc, ldr pc from the stack; A64: ret; i386: ret, ret $imm16) can be
// probed; a function that may
// also leave another way (a branch out of it: a tail call, an indirect jump, a conditional
// return in an IT block) has no :return probe, nor one whose return reloads r0, the return
// value the probe reads before it. The mapping symbols' arrays hold nmap entries each (zero
// past their own count).
static void find_returns(Elf *e, const struct pid_isa *isa, struct dprobe_pidfn *fn,
                         uint32_t size, const uint32_t *data_at, const uint32_t *code_at,
                         unsigned nmap)
{
    fn->nrets = 0;
    fn->ret_why = NULL;
    uint8_t *text = malloc(size);
    if (!text || read_code(e, fn->addr, text, size) < 0) {
        free(text);
        fn->ret_why = "its code is not in the file";
        return;
    }
    unsigned itleft = 0;
    for (uint32_t off = 0; off < size;) {
        uint32_t pc = fn->addr + off;
        int in_data = 0;
        for (unsigned k = 0; k < nmap; k++)
            if (data_at[k] == pc)
                in_data = 1;
        if (in_data) {      // to the next $t in the function, or its end
            uint32_t next = fn->addr + size;
            for (unsigned k = 0; k < nmap; k++)
                if (code_at[k] > pc && code_at[k] < next)
                    next = code_at[k];
            off = next - fn->addr;
            continue;
        }
        struct insn in;
        if (isa->dec->decode(text + off, size - off, pc, &in) < 0 || in.cls == I_BAD) {
            fn->ret_why = "an instruction the decoder does not know";
            break;
        }
        int cond = itleft > 0;
        if (itleft)
            itleft--;
        if (in.cls == I_IT)
            itleft = in.it;
        if (in.cls == I_RET) {
            if ((fn->ret_why = isa->ret_why(text + off, in.len)) != NULL)
                break;
            if (cond) {
                fn->ret_why = "it returns conditionally (in an IT block)";
                break;
            }
            if (fn->nrets == DPROBE_PID_RETS) {
                fn->ret_why = "it has more returns than a probe places";
                break;
            }
            fn->rets[fn->nrets++] = pc;
        } else if (in.cls == I_IJUMP || in.cls == I_JTAB ||
                   ((in.cls == I_BRANCH || in.cls == I_CBRANCH) &&
                    (in.target < fn->addr || in.target >= fn->addr + size))) {
            fn->ret_why = "it can leave by a tail call or an indirect jump";
            break;
        }
        off += in.len;
    }
    if (!fn->ret_why && !fn->nrets)
        fn->ret_why = "it never returns";
    if (fn->ret_why)
        fn->nrets = 0;
    free(text);
}

// The function symbols (STT_FUNC) of e's symbol tables, one a call: 1 with *s and its name,
// 0 after the last. A walk starts zeroed but for its file: { e, NULL, NULL, 0, 0, 0 }.
struct func_walk {
    Elf *e;
    Elf_Scn *scn;
    Elf_Data *d;
    size_t i, n, link;
};

static int next_func(struct func_walk *w, GElf_Sym *s, const char **name)
{
    for (;;) {
        while (w->d && w->i < w->n) {
            if (gelf_getsym(w->d, (int)w->i++, s) && GELF_ST_TYPE(s->st_info) == STT_FUNC &&
                (*name = elf_strptr(w->e, w->link, s->st_name)) != NULL)
                return 1;
        }
        GElf_Shdr sh;
        do {
            if (!(w->scn = elf_nextscn(w->e, w->scn)))
                return 0;
        } while (!gelf_getshdr(w->scn, &sh) || sh.sh_type != SHT_SYMTAB);
        w->d = elf_getdata(w->scn, NULL);
        w->n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
        w->i = 0;
        w->link = sh.sh_link;
    }
}

// The functions of symtab a pid probe can name (docs/pid.md): each STT_FUNC symbol with a
// size, the module mod. 0, or -1 after saying there are too many.
static int load_functions(const char *tool, const char *path, Elf *e, const char *mod)
{
    GElf_Ehdr eh;
    int ok = gelf_getehdr(e, &eh) != NULL, thumb = ok && eh.e_machine == EM_ARM;
    const struct pid_isa *isa = thumb ? &pid_thumb :
                                ok && eh.e_machine == EM_AARCH64 ? &pid_a64 :
                                ok && eh.e_machine == EM_386 ? &pid_i386 : NULL;
    uint32_t *data_at = NULL, *code_at = NULL;   // ARM's mapping symbols ($d, $t)
    unsigned nd = 0, nc = 0;
    for (Elf_Scn *scn = NULL; thumb && (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
        data_at = calloc(n + 1, sizeof(*data_at));
        code_at = calloc(n + 1, sizeof(*code_at));
        for (size_t i = 0; d && data_at && code_at && i < n; i++) {
            GElf_Sym s;
            const char *name;
            if (!gelf_getsym(d, (int)i, &s) || !(name = elf_strptr(e, sh.sh_link, s.st_name)))
                continue;
            if (!strncmp(name, "$d", 2))
                data_at[nd++] = (uint32_t)s.st_value;
            else if (!strncmp(name, "$t", 2))
                code_at[nc++] = (uint32_t)s.st_value;
        }
        break;
    }
    GElf_Sym s;
    const char *name;
    for (struct func_walk w = { e, NULL, NULL, 0, 0, 0 }; next_func(&w, &s, &name);) {
        if (!s.st_size || !*name)
            continue;
        if (nfns == DPROBE_PID_MAX) {
            fprintf(stderr, "%s: %s: more than %u functions in all\n", tool, path,
                    DPROBE_PID_MAX);
            return -1;
        }
        fns[nfns].mod = mod;
        fns[nfns].func = strdup(name);
        fns[nfns].addr = (uint32_t)(s.st_value & (thumb ? ~(uint64_t)1 : ~(uint64_t)0));
        fns[nfns].nrets = 0;
        fns[nfns].entry_why = NULL;
        fns[nfns].ret_why = "the return probes of this architecture are not placed";
        uint8_t first[DPID_I386_MAXLEN] = { 0 };     // (the longest first instruction read)
        uint32_t n1 = s.st_size < (thumb ? 4u : sizeof(first)) ? (uint32_t)s.st_size :
                      (thumb ? 4u : (uint32_t)sizeof(first));
        if (isa && (read_code(e, fns[nfns].addr, first, n1) < 0 || !isa->can_run(first, n1)))
            fns[nfns].entry_why = "its first instruction cannot be run out of line";
        if (isa && (!thumb || (data_at && code_at)))
            find_returns(e, isa, &fns[nfns], (uint32_t)s.st_size, data_at, code_at,
                         nd > nc ? nd : nc);
        nfns++;
    }
    free(data_at);
    free(code_at);
    dprobe_pid_use(fns, nfns);
    return 0;
}

// The function of symtab that holds addr (a Thumb function's value without its bit 0; other
// architectures' functions may start on any byte).
static char *func_of(Elf *e, uint64_t addr)
{
    GElf_Sym s;
    GElf_Ehdr eh;
    const char *name;
    uint64_t mask = gelf_getehdr(e, &eh) && eh.e_machine == EM_ARM ? ~(uint64_t)1 : ~(uint64_t)0;
    for (struct func_walk w = { e, NULL, NULL, 0, 0, 0 }; next_func(&w, &s, &name);) {
        uint64_t v = s.st_value & mask;
        if (addr >= v && addr < v + s.st_size)
            return strdup(name);
    }
    return strdup("");
}

// The value of the symbol named [name, name + len) in e's symbol table; -1 if none.
static int64_t symbol_value(Elf *e, const char *name, size_t len)
{
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        Elf_Data *d;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !(d = elf_getdata(scn, NULL)))
            continue;
        for (size_t i = 0; i < sh.sh_size / (sh.sh_entsize ? sh.sh_entsize : 1); i++) {
            GElf_Sym sym;
            const char *n;
            if (gelf_getsym(d, (int)i, &sym) && sym.st_shndx != SHN_UNDEF &&
                (n = elf_strptr(e, sh.sh_link, sym.st_name)) && strlen(n) == len &&
                !memcmp(n, name, len))
                return (int64_t)sym.st_value;
        }
    }
    return -1;
}

// i386 notes name a static variable by its symbol (`4@passed_third`, `4@tab+8(%eax)`), which
// the kernel cannot look up: each such place is rewritten with the symbol's address
// (`4@0x51000c`), the same operand in AT&T syntax. A name not in the symbol table is left as
// it is, and the kernel refuses the place. Returns a new string.
static char *args_i386(Elf *e, const char *args)
{
    size_t cap = strlen(args) * 2 + 64, o = 0;
    char *out = malloc(cap);
    for (const char *p = args; *p;) {
        if (o + strlen(p) + 32 >= cap)      // (an iteration writes at most 20 more than it reads)
            out = realloc(out, cap = o + strlen(p) + 64);
        const char *at = strchr(p, '@');
        const char *sym = at ? at + 1 : NULL;
        if (!sym || !(*sym == '_' || *sym == '.' || (*sym >= 'a' && *sym <= 'z') ||
                      (*sym >= 'A' && *sym <= 'Z'))) {
            out[o++] = *p++;
            continue;
        }
        const char *end = sym;
        while (*end == '_' || *end == '.' || (*end >= 'a' && *end <= 'z') ||
               (*end >= 'A' && *end <= 'Z') || (*end >= '0' && *end <= '9'))
            end++;
        int64_t v = symbol_value(e, sym, (size_t)(end - sym));
        memcpy(out + o, p, (size_t)(sym - p));
        o += (size_t)(sym - p);
        if (v < 0) {
            memcpy(out + o, sym, (size_t)(end - sym));
            o += (size_t)(end - sym);
        } else {
            char *q;
            if (*end == '+' || *end == '-')     // sym+8: the offset joins the address
                v += strtol(end, &q, 0), end = q;
            o += (size_t)snprintf(out + o, cap - o, "%#llx", (unsigned long long)v);
        }
        p = end;
    }
    out[o] = '\0';
    return out;
}

int tool_usdt_load(const char *tool, const char *path)
{
    const char *slash = strrchr(path, '/');
    char mod[256];
    snprintf(mod, sizeof(mod), "%s", slash ? slash + 1 : path);
    size_t ml = strlen(mod);
    if (ml > 4 && !strcmp(mod + ml - 4, ".elf"))
        mod[ml - 4] = '\0';
    return tool_usdt_load_as(tool, path, mod);
}

// What reading a program's notes needs: the file (its tool and path for errors), its module
// name, where its .stapsdt.base is now, its address width and whether it is i386's.
struct note_ctx {
    const char *tool, *path;
    Elf *e;
    char *mod;
    uint64_t base_now;
    size_t aw;
    int i386;
};

// One stapsdt note (desc, descsz bytes) as a site of the program: 0, or -1 after saying why
// (a note without its strings, more sites than the table holds).
static int take_note(const struct note_ctx *c, const char *desc, size_t descsz)
{
    size_t aw = c->aw;
    uint64_t pc = 0, base = 0, sem = 0;
    memcpy(&pc, desc, aw);      // (the host and the targets are little-endian)
    memcpy(&base, desc + aw, aw);
    memcpy(&sem, desc + 2 * aw, aw);
    const char *prov = desc + 3 * aw, *end = desc + descsz;
    const char *pname = memchr(prov, 0, (size_t)(end - prov));
    const char *args = pname ? memchr(pname + 1, 0, (size_t)(end - pname - 1)) : NULL;
    if (!args || !memchr(args + 1, 0, (size_t)(end - args - 1))) {
        fprintf(stderr, "%s: %s: a stapsdt note without its strings\n", c->tool, c->path);
        return -1;
    }
    if (nsites == DPROBE_USDT_MAX) {
        fprintf(stderr, "%s: %s: more than %u USDT sites in all\n", c->tool, c->path,
                DPROBE_USDT_MAX);
        return -1;
    }
    if (c->base_now && base)
        pc += c->base_now - base;
    struct dprobe_usdt *u = &sites[nsites++];
    u->prov = strdup(prov);
    u->name = strdup(pname + 1);
    u->args = c->i386 ? args_i386(c->e, args + 1) : strdup(args + 1);
    u->mod = c->mod;
    u->func = func_of(c->e, pc);
    u->addr = (uint32_t)pc;
    u->sem = (uint32_t)sem;
    return 0;
}

// The program's stapsdt notes as sites: how many, or -1 after saying why.
static int take_notes(const struct note_ctx *c)
{
    GElf_Shdr sh;
    Elf_Scn *scn = tool_elf_section(c->e, ".note.stapsdt", &sh);
    Elf_Data *d = scn && sh.sh_type == SHT_NOTE ? elf_getdata(scn, NULL) : NULL;
    GElf_Nhdr nh;
    size_t off = 0, noff, doff;
    int found = 0;
    while (d && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
        if (nh.n_type != STAPSDT_TYPE || nh.n_namesz != 8 ||
            memcmp((const char *)d->d_buf + noff, "stapsdt", 8) || nh.n_descsz < 3 * c->aw + 3)
            continue;
        if (take_note(c, (const char *)d->d_buf + doff, nh.n_descsz) < 0)
            return -1;
        found++;
    }
    return found;
}

int tool_usdt_load_as(const char *tool, const char *path, const char *module)
{
    struct note_ctx c = { .tool = tool, .path = path };
    int fd;
    c.e = tool_elf_open(tool, path, &fd);
    if (!c.e)
        return -1;
    c.mod = strdup(module);
    int rc = load_functions(tool, path, c.e, c.mod);
    if (rc == 0) {
        GElf_Shdr sh;
        GElf_Ehdr eh;
        c.base_now = tool_elf_section(c.e, ".stapsdt.base", &sh) ? sh.sh_addr : 0;
        c.aw = gelf_getclass(c.e) == ELFCLASS64 ? 8 : 4;
        c.i386 = gelf_getehdr(c.e, &eh) && eh.e_machine == EM_386;
        rc = take_notes(&c);
        if (rc >= 0)
            dprobe_usdt_use(sites, nsites);
    }
    tool_elf_close(c.e, fd);
    return rc;
}

int tool_usdt_option(const char *tool, int *argc, char **argv, int remove)
{
    for (int i = 1; i < *argc; i++) {
        const char *file = NULL;
        int take = 0;
        if (!strcmp(argv[i], "--elf") && i + 1 < *argc) {
            file = argv[i + 1];
            take = 2;
        } else if (!strncmp(argv[i], "--elf=", 6)) {
            file = argv[i] + 6;
            take = 1;
        } else if (!strcmp(argv[i], "--")) {
            break;
        }
        if (!take)
            continue;
        if (tool_usdt_load(tool, file) < 0)
            return -1;
        if (remove) {
            memmove(argv + i, argv + i + take, (size_t)(*argc - i - take + 1) * sizeof(*argv));
            *argc -= take;
            i--;
        } else {
            i += take - 1;
        }
    }
    return 0;
}
