// SPDX-License-Identifier: MIT
// Formats a kernel-call event's arguments the way QNX's traceprinter does (one line, -n):
//   fast (a 2-word event): only the fields marked f, in order, one payload word each;
//   wide (longer events):  every field in order while payload words remain;
// labels " name:", H "0x%08x", D "%d", P as glibc's "%p" of the 32-bit value, and strings:
// fast S "\"abcd\" (0x%08x)"; wide S s s... gathered into one "\"...\" (0x%08x 0x%08x ...)".
// String fields are the payload's raw bytes in the file (memory order), and their hex is those
// bytes read as a little-endian word (QNX's tool does not byte-swap them; it runs on x86): for
// a big-endian file that is the word byte-swapped. A 4-byte chunk holding an unprintable byte
// shows as "", and the text stops at the first NUL. An exit whose first word is -1 is a failure: " ret_val:-1, errno:N".
#include "qnx_kercall.h"
#include "text_line.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <trace/kev_bytes.h>

static int is_exit(const struct kev_event *e)
{
    return kev_kcall_part(e) == KEV_KCALL_EXIT;
}

static const char *spec_of(const struct kev_event *e, const char **name)
{
    unsigned n = kev_kcall_no(e);
    if (n >= QNX_KERCALL_NUM || !qnx_kercalls[n].name)
        return NULL;
    *name = qnx_kercalls[n].name;
    return is_exit(e) ? qnx_kercalls[n].exit : qnx_kercalls[n].entry;
}

const char *qnx_kercall_name(const struct kev_event *e)
{
    const char *name = NULL;
    const char *s = spec_of(e, &name);
    if (s && s[0] == '@') { // the exit prints another name
        static char alt[40];
        size_t k = 0;
        for (s++; *s && *s != ' ' && k + 1 < sizeof(alt); s++)
            alt[k++] = *s;
        alt[k] = 0;
        return alt;
    }
    return name;
}

// The 4 bytes of w as text, or "" when one before the first NUL is unprintable. w is the raw
// word as QNX's tool sees it (little-endian view of the file's bytes).
static void chunk(uint32_t w, char out[5])
{
    unsigned k = 0;
    uint8_t b[4];
    kev_put_le32(b, w);
    for (unsigned i = 0; i < 4; i++) {
        unsigned char c = b[i];
        if (!c)
            break;
        if (c != '\n' && !isprint(c)) {
            out[0] = 0;
            return;
        }
        out[k++] = (char)c;
    }
    out[k] = 0;
}

static void pointer(struct text_line *o, uint32_t v)
{
    if (v)
        text_add(o, "0x%x", v);
    else
        text_add(o, "(nil)");
}

int qnx_kercall_args(const struct kev_event *e, int big, char *buf, size_t cap)
{
    struct text_line o = { buf, 0, cap };
    const char *name = NULL, *s = spec_of(e, &name);
    buf[0] = 0;
    if (!s)
        return -1;
    if (is_exit(e) && e->nw >= 2 && e->w[0] == 0xffffffffu) {
        text_add(&o, " ret_val:-1, errno:%d", (int)e->w[1]);
        return 0;
    }
    if (s[0] == '@')
        s = strchr(s, ' ') ? strchr(s, ' ') + 1 : "";
    int fast = e->nw <= 2;
    unsigned c = 0;             // payload words used
    char str[256], hex[1024];   // a wide string being gathered
    size_t sl = 0, hl = 0;
    str[0] = hex[0] = 0;
    while (*s && c < e->nw) {
        const char *f = s;
        size_t len = strcspn(s, " ");
        s += len + (s[len] == ' ');
        int marked = f[0] == 'f';
        if (marked)
            f++, len--;
        if (len == 0 || (fast && !marked))
            continue;
        char type = f[0];
        int lablen = (int)len - 1;
        const char *label = f + 1;
        uint32_t w = e->w[c], raw = big ? kev_swap32(w) : w;
        char ch[5];
        if (fast) {
            text_add(&o, " %.*s:", lablen, label);
            switch (type) {
            case 'S': chunk(raw, ch); text_add(&o, "\"%s\" (0x%08x)", ch, raw); break;
            case 'D': text_add(&o, "%d", (int32_t)w); break;
            case 'H': text_add(&o, "0x%08x", w); break;
            case 'P': pointer(&o, w); break;
            default: continue; // 's' is never marked fast
            }
            c++;
            continue;
        }
        if (type != 's') {
            if (sl || hl) {
                text_add(&o, "\"%s\" (0x%s)", str, hex);
                sl = hl = 0;
                str[0] = hex[0] = 0;
            }
            text_add(&o, " %.*s:", lablen, label);
        }
        switch (type) {
        case 'S':
        case 's':
            chunk(raw, ch);
            if (strlen(str) == sl && sl + 4 < sizeof(str)) { // text stops at the first gap
                memcpy(str + sl, ch, strlen(ch) + 1);
                if (strlen(ch) < 4)
                    str[sl + strlen(ch)] = 0;
            }
            sl += 4;
            if (hl + 12 < sizeof(hex))
                hl += (size_t)snprintf(hex + hl, sizeof(hex) - hl, type == 'S' ? "%08x" : " 0x%08x", raw);
            break;
        case 'D': text_add(&o, "%d", (int32_t)w); break;
        case 'H': text_add(&o, "0x%08x", w); break;
        case 'P': pointer(&o, w); break;
        default: break;
        }
        c++;
    }
    if (sl || hl)
        text_add(&o, "\"%s\" (0x%s)", str, hex);
    return 0;
}
