// SPDX-License-Identifier: MIT
// The host's one JSON string writer (tools/include/kevhost/json_out.h): one table says what
// each byte becomes, json_str_to writes a string by it, json_page_copy applies its page part to
// a JSON text already written. Plain bytes go out in runs (kev2json writes millions of names).
#include <kevhost/json_out.h>

#include <string.h>
#include <trace/kev_text.h>

enum { PLAIN, ESC, PAGE, HIGH }; // copied; always escaped; escaped in a page; >= 0x80

static int cls(unsigned c)
{
    if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
        return ESC;
    if (c >= 0x80)
        return HIGH;
    return c == '<' || c == '>' || c == '&' ? PAGE : PLAIN;
}

// U+2028 or U+2029 at s (JavaScript's line terminators).
static int line_sep(const unsigned char *s)
{
    return s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9);
}

static void put_u(json_sink *put, void *user, unsigned code)
{
    char e[8];
    static const char hex[] = "0123456789abcdef";
    e[0] = '\\', e[1] = 'u';
    for (int i = 0; i < 4; i++)
        e[2 + i] = hex[(code >> (12 - 4 * i)) & 0xf];
    put(user, e, 6);
}

void json_str_to(json_sink *put, void *user, const char *s, unsigned flags)
{
    const unsigned char *p = (const unsigned char *)s;
    int page = (flags & JSON_PAGE) != 0;
    put(user, "\"", 1);
    while (*p) {
        size_t run = 0;
        while (p[run] && (cls(p[run]) == PLAIN || (cls(p[run]) == PAGE && !page)))
            run++;
        if (run) {
            put(user, (const char *)p, run);
            p += run;
            continue;
        }
        size_t k = cls(*p) == HIGH ? kev_utf8_len(p, 4) : 0; // (ends at the NUL)
        if (k && page && line_sep(p))
            put_u(put, user, 0x2028u + (p[2] - 0xa8u));
        else if (k)
            put(user, (const char *)p, k);
        else if (*p == '"' || *p == '\\')
            put(user, "\\", 1), put(user, (const char *)p, 1);
        else
            put_u(put, user, *p);
        p += k ? k : 1;
    }
    put(user, "\"", 1);
}

static void put_file(void *user, const char *p, size_t n)
{
    fwrite(p, 1, n, user);
}

void json_str(FILE *f, const char *s, unsigned flags)
{
    json_str_to(put_file, f, s, flags);
}

void json_page_copy(FILE *f, const char *json, size_t n)
{
    const unsigned char *p = (const unsigned char *)json;
    size_t i = 0;
    while (i < n) {
        size_t k = i;
        while (k < n && cls(p[k]) != PAGE && !(p[k] == 0xe2 && k + 2 < n && line_sep(p + k)))
            k++;
        fwrite(p + i, 1, k - i, f);
        if (k >= n)
            break;
        put_u(put_file, f, cls(p[k]) == PAGE ? p[k] : 0x2028u + (p[k + 2] - 0xa8u));
        i = k + (cls(p[k]) == PAGE ? 1 : 3);
    }
}
