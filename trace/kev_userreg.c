// SPDX-License-Identifier: MIT
// The user-event registry (trace/include/trace/kev_userreg.h): parsing registrations and
// formatting a user event's words with its declared format. A format comes from the trace,
// so it is never handed to printf as it is: each conversion is checked and rebuilt.
#include <trace/kev_userreg.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kev_userreg_add(struct kev_userreg *g, uint32_t pid, const char *text)
{
    char *end;
    unsigned long code = strtoul(text, &end, 10);
    if (end == text || *end != ' ' || code >= KEV_USER_REGISTRY) {
        g->bad++;
        return -1;
    }
    const char *name = end + 1, *sp = strchr(name, ' ');
    size_t nl = sp ? (size_t)(sp - name) : strlen(name);
    if (!nl || nl >= KEV_UREG_NAME) {
        g->bad++;
        return -1;
    }
    struct kev_ureg_entry *e = NULL;
    for (unsigned i = 0; i < g->n && !e; i++)
        if (g->e[i].pid == pid && g->e[i].code == code)
            e = &g->e[i]; // registered again: the new one holds from now on
    if (!e) {
        if (g->n >= KEV_UREG_MAX) {
            g->full++;
            return -1;
        }
        e = &g->e[g->n++];
    }
    e->pid = pid;
    e->code = (uint32_t)code;
    memcpy(e->name, name, nl);
    e->name[nl] = 0;
    snprintf(e->fmt, sizeof(e->fmt), "%s", sp ? sp + 1 : "");
    return 0;
}

const struct kev_ureg_entry *kev_userreg_find(const struct kev_userreg *g, uint32_t pid,
                                              uint32_t code)
{
    const struct kev_ureg_entry *any = NULL;
    for (unsigned i = 0; i < g->n; i++)
        if (g->e[i].code == code) {
            if (g->e[i].pid == pid)
                return &g->e[i];
            any = any ? any : &g->e[i];
        }
    return any;
}

static void put(char *out, size_t n, size_t *len, const char *s, size_t k)
{
    while (k-- && *len + 1 < n)
        out[(*len)++] = *s++;
    out[*len < n ? *len : n - 1] = 0;
}

size_t kev_userreg_format(const char *fmt, const uint32_t *w, unsigned nw, char *out, size_t n)
{
    size_t len = 0;
    unsigned used = 0;
    char buf[48], spec[24];
    if (!n)
        return 0;
    out[0] = 0;
    for (const char *p = fmt; *p;) {
        if (*p != '%') {
            put(out, n, &len, p++, 1);
            continue;
        }
        if (p[1] == '%') {
            put(out, n, &len, "%", 1);
            p += 2;
            continue;
        }
        size_t k = 1; // flags, width, precision (digits only), then the conversion
        while (p[k] && strchr("-+ #0", p[k]) && k < 6)
            k++;
        while (p[k] >= '0' && p[k] <= '9' && k < 10)
            k++;
        if (p[k] == '.')
            for (k++; p[k] >= '0' && p[k] <= '9' && k < 14; k++)
                ;
        while (p[k] == 'l' || p[k] == 'h')
            k++; // length modifiers: a word is 32 bits whatever they say
        char conv = p[k];
        if (!conv || !strchr("diuxXoc", conv)) { // not ours: shown as written
            put(out, n, &len, p, k + (conv ? 1 : 0));
            p += k + (conv ? 1 : 0);
            continue;
        }
        size_t sl = 0;
        for (size_t i = 0; i < k && sl + 2 < sizeof(spec); i++)
            if (p[i] != 'l' && p[i] != 'h')
                spec[sl++] = p[i];
        spec[sl++] = conv;
        spec[sl] = 0;
        int m;
        if (used >= nw)
            m = snprintf(buf, sizeof(buf), "?");
        else if (conv == 'd' || conv == 'i')
            m = snprintf(buf, sizeof(buf), spec, (int)(int32_t)w[used++]);
        else if (conv == 'c')
            m = snprintf(buf, sizeof(buf), spec, (int)(w[used++] & 0xffu));
        else
            m = snprintf(buf, sizeof(buf), spec, (unsigned)w[used++]);
        put(out, n, &len, buf, m > 0 ? (size_t)m : 0);
        p += k + 1;
    }
    for (; used < nw; used++) {
        int m = snprintf(buf, sizeof(buf), " 0x%x", w[used]);
        put(out, n, &len, buf, (size_t)m);
    }
    return len;
}
