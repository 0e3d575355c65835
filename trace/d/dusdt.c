// SPDX-License-Identifier: MIT
// Reading a USDT site's argument places (d/dusdt.h), in ARM's or AArch64's syntax.
#include <d/dusdt.h>
#include <stdbool.h>

static const char *blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

// A decimal or 0x number, signed, that fits 32 bits signed: *out, *s past it; -1 if none.
static int num(const char **s, int32_t *out)
{
    const char *p = *s;
    int neg = 0;
    if (*p == '-' || *p == '+')
        neg = *p++ == '-';
    if (*p < '0' || *p > '9')
        return -1;
    uint64_t v = 0, base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        base = 16, p += 2;
    for (;; p++) {
        unsigned d;
        if (*p >= '0' && *p <= '9')
            d = (unsigned)(*p - '0');
        else if (base == 16 && *p >= 'a' && *p <= 'f')
            d = (unsigned)(*p - 'a' + 10);
        else if (base == 16 && *p >= 'A' && *p <= 'F')
            d = (unsigned)(*p - 'A' + 10);
        else
            break;
        v = v * base + d;
        if (v > 0xffffffffu)
            return -1;      // (a wider constant than a place this reader keeps)
    }
    // ARM's notes write a word's constant as its unsigned value (#4294967295): keep its bits
    if (neg ? v > 0x80000000u : v > 0xffffffffu)
        return -1;
    *out = neg ? (int32_t)(0u - (uint32_t)v) : (int32_t)(uint32_t)v;
    *s = p;
    return 0;
}

// The number of one or two digits after a register's letter at *s (a digit follows it): it, *s
// past it; -1 (*s unmoved) when over max.
static int reg_number(const char **s, int max)
{
    const char *p = *s + 1;
    int n = *p++ - '0';
    if (*p >= '0' && *p <= '9')
        n = n * 10 + (*p++ - '0');
    if (n > max)
        return -1;
    *s = p;
    return n;
}

// An ARM register's name: its number, *s past it; -1 if none.
static int reg_arm(const char **s)
{
    static const struct { const char *name; uint8_t n; } alias[] = {
        { "sl", 10 }, { "fp", 11 }, { "ip", 12 }, { "sp", 13 }, { "lr", 14 },
    };
    const char *p = *s;
    if (p[0] == 'r' && p[1] >= '0' && p[1] <= '9')
        return reg_number(s, 12);
    for (unsigned i = 0; i < sizeof(alias) / sizeof(alias[0]); i++)
        if (p[0] == alias[i].name[0] && p[1] == alias[i].name[1]) {
            *s = p + 2;
            return alias[i].n;
        }
    return -1;
}

// An AArch64 register's name (x0-x30, w0-w30: the same register; sp): its DWARF number, *s
// past it; -1 if none.
static int reg_a64(const char **s)
{
    const char *p = *s;
    if ((p[0] == 'x' || p[0] == 'w') && p[1] >= '0' && p[1] <= '9')
        return reg_number(s, 30);
    if (p[0] == 's' && p[1] == 'p') {
        *s = p + 2;
        return 31;
    }
    return -1;
}

static int reg(const char **s, unsigned syntax)
{
    int r = syntax == DUSDT_SYNTAX_A64 ? reg_a64(s) : reg_arm(s);
    const char *p = *s;
    if (r >= 0 && ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
        return -1;      // (a longer name: not a register this reader knows)
    return r;
}

// An immediate: ARM's start with '#', AArch64's are a bare number ('#' accepted too).
static bool immediate(const char *s, unsigned syntax)
{
    return *s == '#' || (syntax == DUSDT_SYNTAX_A64 && ((*s >= '0' && *s <= '9') ||
                                                        *s == '-' || *s == '+'));
}

// An i386 register's name after its '%' (AT&T syntax): its DWARF number (eax ecx edx ebx esp
// ebp esi edi), *s past it; -1 if none. The 16- and 8-bit names (%ax, %al) are the same
// register, which the place's size then cuts; %ah-%dh (bits 8-15) are not read.
static int reg_i386(const char **s)
{
    static const char names[8][3] = { "ax", "cx", "dx", "bx", "sp", "bp", "si", "di" };
    const char *p = *s;
    int wide = p[0] == 'e';
    if (wide)
        p++;
    for (int n = 0; n < 8; n++)
        if (p[0] == names[n][0] && p[1] == names[n][1]) {
            *s = p + 2;
            return n;
        }
    if (!wide && p[1] == 'l' && (p[0] == 'a' || p[0] == 'c' || p[0] == 'd' || p[0] == 'b')) {
        *s = p + 2;
        return p[0] == 'a' ? 0 : p[0] == 'c' ? 1 : p[0] == 'd' ? 2 : 3;
    }
    return -1;
}

// An i386 operand (AT&T syntax): %reg, $imm, or memory: [disp](%reg) or a bare address
// (the host writes a symbol's address in place of its name: tools/common/tool_usdt.c).
static int place_i386(const char **s, struct dusdt_arg *a)
{
    int r;
    if (**s == '%') {
        (*s)++;
        if ((r = reg_i386(s)) < 0)
            return -1;
        a->kind = DUSDT_REG;
        a->reg = (uint8_t)r;
        return 0;
    }
    if (**s == '$') {
        (*s)++;
        a->kind = DUSDT_IMM;
        return num(s, &a->value);
    }
    a->kind = DUSDT_MEM;
    a->reg = DUSDT_NOREG;
    if (**s != '(' && num(s, &a->value) != 0)
        return -1;
    if (**s == '(') {
        (*s)++;
        if (*(*s)++ != '%' || (r = reg_i386(s)) < 0 || *(*s)++ != ')')
            return -1;      // (an index register, (%eax,%ebx,4), is not read)
        a->reg = (uint8_t)r;
    }
    return 0;
}

int dusdt_parse(const char *text, unsigned syntax, struct dusdt_arg *args, const char **bad)
{
    for (unsigned i = 0; i < DUSDT_MAXARGS; i++)
        args[i] = (struct dusdt_arg){ DUSDT_NONE, 0, 0, 0, 0 };
    if (syntax != DUSDT_SYNTAX_ARM && syntax != DUSDT_SYNTAX_A64 && syntax != DUSDT_SYNTAX_I386) {
        *bad = text;
        return -1;
    }
    const char *s = blanks(text);
    int n = 0;
    while (*s) {
        *bad = s;
        if (n == DUSDT_MAXARGS)
            return -1;
        struct dusdt_arg *a = &args[n];
        int32_t size;
        if (num(&s, &size) != 0 || *s++ != '@' ||
            (size != 1 && size != 2 && size != 4 && size != 8 && size != -1 && size != -2 &&
             size != -4 && size != -8))
            return -1;
        a->size = (int8_t)size;
        int r;
        if (syntax == DUSDT_SYNTAX_I386) {
            if (place_i386(&s, a) != 0)
                return -1;
        } else if (immediate(s, syntax)) {
            if (*s == '#')
                s++;
            if (num(&s, &a->value) != 0)
                return -1;
            a->kind = DUSDT_IMM;
        } else if (*s == '[') {
            s = blanks(s + 1);
            if ((r = reg(&s, syntax)) < 0)
                return -1;
            a->kind = DUSDT_MEM;
            a->reg = (uint8_t)r;
            s = blanks(s);
            if (*s == ',') {
                s = blanks(s + 1);
                if (*s == '#')
                    s++;
                else if (syntax == DUSDT_SYNTAX_ARM)
                    return -1;
                if (num(&s, &a->value) != 0)
                    return -1;
                s = blanks(s);
            }
            if (*s++ != ']')
                return -1;
        } else {
            if ((r = reg(&s, syntax)) < 0)
                return -1;
            a->kind = DUSDT_REG;
            a->reg = (uint8_t)r;
        }
        if (*s && *s != ' ' && *s != '\t')
            return -1;
        s = blanks(s);
        n++;
    }
    return n;
}

uint64_t dusdt_extend(const struct dusdt_arg *arg, uint64_t v)
{
    int size = arg->size < 0 ? -arg->size : arg->size;
    if (size >= 8)
        return v;
    unsigned sh = 64u - 8u * (unsigned)size;
    return arg->size < 0 ? (uint64_t)((int64_t)(v << sh) >> sh) : v << sh >> sh;
}
