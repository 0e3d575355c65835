// SPDX-License-Identifier: MIT
// The field API (trace/kev_events.h): one field of an event by its descriptor (looked up once
// by name: kev_field_desc_get, then kev_field / kev_field_read per event), or every field of an
// event by name (kev_fields_decode, then kev_field_get, kev_field_num, kev_field_text), read
// from its row of the event table (trace/kev_events.c) and, for kernel calls, from this
// kernel's layouts of its calls, or QNX's for a QNX system's capture (trace/kev_kercall.c).
// Freestanding, no allocation: the fields, their strings and arrays are in the caller's
// struct kev_fields. Every read is bounded by the event's nw words. The kernel links this
// file for kev_field_read (its row probes' arguments); the rest is the host's.
#include <trace/kev_decode.h>
#include <trace/kev_events.h>
#include <trace/kev_kercall.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static struct kev_field *add(struct kev_fields *o, const char *name, unsigned kind,
                             const char *meaning)
{
    if (o->n >= KEV_MAX_FIELDS)
        return NULL;
    struct kev_field *f = &o->f[o->n++];
    f->name = name;
    f->kind = (uint8_t)kind;
    f->v = 0;
    f->str = NULL;
    f->arr = NULL;
    f->n = 0;
    f->names = NULL;
    f->meaning = meaning;
    return f;
}

static int same(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

// 1 when a field called name is already decoded.
static int kev_field_count(const struct kev_fields *o, const char *name)
{
    for (unsigned i = 0; i < o->n; i++)
        if (same(o->f[i].name, name))
            return 1;
    return 0;
}

static const char *text_begin(struct kev_fields *o) { return o->text + o->ntext; }

static void text_end(struct kev_fields *o)
{
    if (o->ntext < sizeof(o->text))
        o->text[o->ntext++] = 0;
    else
        o->text[sizeof(o->text) - 1] = 0;
}

static void text_put(struct kev_fields *o, char c)
{
    if (o->ntext + 1 < sizeof(o->text))
        o->text[o->ntext++] = c;
}

// The bytes of words w[first..] in memory order up to their NUL (the file's byte order).
static unsigned string_at(const struct kev_reader *r, const struct kev_event *e, unsigned first,
                          struct kev_fields *o, const char **s)
{
    uint8_t b[4u * 2u * KEV_MAX_COMBINE_SLOTS];
    size_t n = first < e->nw ? kev_event_bytes(r, e, first, b, sizeof(b)) : 0;
    size_t len = 0;
    *s = text_begin(o);
    while (len < n && b[len])
        text_put(o, (char)b[len++]);
    text_end(o);
    return (unsigned)((len + 4u) / 4u); // words taken, NUL included
}

static const uint64_t *vals_begin(const struct kev_fields *o) { return o->vals + o->nvals; }

static void vals_put(struct kev_fields *o, uint64_t v)
{
    if (o->nvals < NELEM(o->vals))
        o->vals[o->nvals++] = v;
}

static void raw_words(struct kev_fields *o, const struct kev_event *e, const char *name,
                      unsigned from)
{
    struct kev_field *f = add(o, name, KEV_K_WORDS, "the payload's words");
    if (!f)
        return;
    f->arr = vals_begin(o);
    for (unsigned i = from; i < e->nw; i++)
        vals_put(o, e->w[i]);
    f->n = (unsigned)(vals_begin(o) - f->arr);
}

// This kernel's layout of call c's entry when the capture is this kernel's (it carries the
// board's record in its system page; a QNX system's capture has QNX's layouts), else NULL.
static const char *our_kercall(const struct kev_reader *r, unsigned c)
{
    return r && r->kr_board_hz && c < KEV_OUR_KERCALL_NUM ? kev_our_kercalls[c] : NULL;
}

// An entry's words named by this kernel's layout of the call (trace/kev_kercall.c): its
// arguments in their registers' order, the first two in a fast event (an exit's: its result
// registers).
static void our_kcall_args(const struct kev_event *e, const char *s, struct kev_fields *o,
                           const char *meaning)
{
    unsigned w = 0;
    while (*s && w < e->nw) {
        char type = *s++;
        const char *name = text_begin(o);
        while (*s && *s != ' ')
            text_put(o, *s++);
        text_end(o);
        while (*s == ' ')
            s++;
        enum kev_fkind k = type == 'D' ? KEV_K_S32 : type == 'U' || type == 'W' ? KEV_K_U32
                        : type == 'P' ? KEV_K_ADDR : type == 'I' ? KEV_K_PID
                        : type == 'T' ? KEV_K_TID : type == 'R' ? KEV_K_PRIO
                        : type == 'Q' ? KEV_K_IRQ : type == 'C' ? KEV_K_CYCLES : KEV_K_HEX;
        struct kev_field *f = add(o, name, k, meaning);
        if (!f)
            return;
        f->v = k == KEV_K_S32 ? (uint64_t)(int64_t)(int32_t)e->w[w] : e->w[w];
        if ((type == 'W' || type == 'C') && w + 1 < e->nw) // 64 bits, low word first
            f->v |= (uint64_t)e->w[++w] << 32;
        w++;
    }
}

// An exit of this kernel's call c: errno-style [result, 0] or [-1, errno] as "ret" and "errno"
// (0: none), both always there; a call whose result is not errno-style by its own layout of
// the result registers (kev_our_kercall_exits).
static void our_kcall_exit(const struct kev_event *e, unsigned c, struct kev_fields *o)
{
    const char *s = c < KEV_OUR_KERCALL_NUM ? kev_our_kercall_exits[c] : NULL;
    if (s) {
        our_kcall_args(e, s, o, "the call's result register");
        return;
    }
    int32_t ret = e->nw ? (int32_t)e->w[0] : 0;
    uint32_t err = 0;
    kev_kcall_exit(e, &ret, &err); // (an exit of fewer than two words: its one word)
    struct kev_field *f = add(o, "ret", KEV_K_S32, "the call's result (-1: failed)");
    if (f)
        f->v = (uint64_t)(int64_t)ret;
    if (e->nw >= 2 && (f = add(o, "errno", KEV_K_ERRNO, "why it failed (0: it did not)")))
        f->v = err;
    if (e->nw > 2)  // (this kernel's exits are two words: kept, not named)
        raw_words(o, e, "more", 2);
}

// 1 when call c sits on a number QNX leaves spare (our own calls do): its words are the call's
// registers, no QNX layout names them.
static int kcall_spare(const struct kev_reader *r, unsigned c)
{
    if (our_kercall(r, c))
        return 1;
    if (c >= QNX_KERCALL_NUM)
        return 0;
    for (const char *q = qnx_kercalls[c].name; q && *q; q++)
        if (q[0] == 'S' && q[1] == 'P' && q[2] == 'A' && q[3] == 'R' && q[4] == 'E')
            return 1;
    return 0;
}

// An exit by QNX's rules: "ret" (and "errno" when it failed); a success of a spare call, or of
// one whose layout starts with '@', also "ret2" (its second word). 1 when that is all; 0 when
// the exit succeeded and its layout names the words (o emptied for them).
static int kcall_exit_head(const struct kev_event *e, int spare, const char *s, struct kev_fields *o)
{
    int32_t ret;
    uint32_t err;
    if (!kev_kcall_exit(e, &ret, &err))
        return 0;
    struct kev_field *f = add(o, "ret", KEV_K_S32, "the call's result (-1: failed)");
    if (f)
        f->v = (uint64_t)(int64_t)ret;
    if (err && (f = add(o, "errno", KEV_K_ERRNO, "why it failed")))
        f->v = err;
    if (ret == -1 || err)
        return 1;
    if (spare || (s && s[0] == '@')) { // the words are the result and a second one
        if (e->nw >= 2 && (f = add(o, "ret2", KEV_K_HEX, "the result's second word")))
            f->v = e->w[1];
        return 1;
    }
    o->n = 0; // a success: the layout names the words below
    return 0;
}

// A spare call's entry: its registers as arg0..arg5, the rest as "more".
static void spare_entry(const struct kev_event *e, struct kev_fields *o)
{
    static const char *const argn[] = { "arg0", "arg1", "arg2", "arg3", "arg4", "arg5" };
    for (unsigned i = 0; i < e->nw && i < NELEM(argn); i++) {
        struct kev_field *f = add(o, argn[i], KEV_K_HEX, "the call's argument (a register)");
        if (f)
            f->v = e->w[i];
    }
    if (e->nw > NELEM(argn))
        raw_words(o, e, "more", NELEM(argn));
}

// A QNX layout's label (len bytes) as a field name in o's text: "event->sigev_value" gives
// "event_sigev_value", a name already decoded gets "_2".."_9" (QNX repeats some). Its start.
static const char *qnx_name(struct kev_fields *o, const char *label, unsigned llen)
{
    const char *name = text_begin(o);
    for (unsigned i = 0; i < llen; i++) {
        char ch = label[i];
        if (ch == '-' && label[i + 1] == '>')
            continue;
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')))
            ch = '_';
        if (ch == '_' && o->ntext && o->text[o->ntext - 1] == '_')
            continue;
        text_put(o, ch);
    }
    while (o->ntext && o->text[o->ntext - 1] == '_')
        o->ntext--;
    unsigned base = (unsigned)(o->ntext - (size_t)(name - o->text));
    text_end(o);
    for (unsigned k = 2; kev_field_count(o, name) && k < 10; k++) {
        o->ntext = (size_t)(name - o->text) + base;
        text_put(o, '_');
        text_put(o, (char)('0' + k));
        text_end(o);
    }
    return name;
}

// A string of QNX's layout at word w: that word and the 's' words after it in s (in fast mode
// the one word). The words it took; 0 when o is full.
static unsigned qnx_string(const struct kev_reader *r, const struct kev_event *e, unsigned w,
                           const char *s, int fast, const char *name, struct kev_fields *o)
{
    unsigned nwords = 1;
    if (!fast)
        for (const char *q = s; q[0] == 's' && (q[1] == ' ' || !q[1]); q += 1 + (q[1] == ' '))
            nwords++;
    struct kev_field *f = add(o, name, KEV_K_STRING, "text (its first bytes)");
    if (!f)
        return 0;
    const char *str = text_begin(o);
    uint8_t b[64];
    size_t nb = kev_event_bytes(r, e, w, b, nwords * 4u < sizeof(b) ? nwords * 4u : sizeof(b));
    for (size_t i = 0; i < nb && b[i]; i++)
        text_put(o, (char)b[i]);
    text_end(o);
    f->str = str;
    return nwords;
}

// e's words named by QNX's layout s of its call: fast (2 words) the fields marked f, wide all
// of them while words remain, the rest as "more". Fields named "empty" are skipped; a string's
// words are one field.
static void qnx_layout(const struct kev_reader *r, const struct kev_event *e, const char *s,
                       struct kev_fields *o)
{
    if (s[0] == '@') {
        while (*s && *s != ' ')
            s++;
        while (*s == ' ')
            s++;
    }
    int fast = e->nw <= 2;
    unsigned w = 0;
    while (*s && w < e->nw) {
        const char *p = s;
        unsigned len = 0;
        while (p[len] && p[len] != ' ')
            len++;
        s = p + len + (p[len] == ' ');
        int marked = p[0] == 'f';
        if (marked)
            p++, len--;
        if (len == 0 || (fast && !marked) || p[0] == 's')
            continue;
        char type = p[0];
        const char *label = p + 1;
        unsigned llen = len - 1;
        if (llen == 5 && label[0] == 'e' && label[1] == 'm' && label[2] == 'p' &&
            label[3] == 't' && label[4] == 'y') {
            w++;
            continue;
        }
        const char *name = qnx_name(o, label, llen);
        if (type == 'S') {
            unsigned took = qnx_string(r, e, w, s, fast, name, o);
            if (!took)
                return;
            w += took;
            continue;
        }
        struct kev_field *f = add(o, name, type == 'D' ? KEV_K_S32 : type == 'P' ? KEV_K_ADDR
                                                                                   : KEV_K_HEX,
                                  "the call's argument (QNX's layout)");
        if (!f)
            return;
        f->v = type == 'D' ? (uint64_t)(int64_t)(int32_t)e->w[w] : e->w[w];
        w++;
    }
    if (w < e->nw && !fast)
        raw_words(o, e, "more", w);
}

// A kernel call's fields: this kernel's layouts for its own capture, else QNX's (a spare
// call's registers as they are). QNX's interrupted call (this kernel writes none) is read as
// its call's exit.
static void kcall_fields(const struct kev_reader *r, const struct kev_event *e,
                         struct kev_fields *o)
{
    enum kev_kcall_part part = kev_kcall_part(e);
    int entry = part == KEV_KCALL_ENTRY, exit = part == KEV_KCALL_EXIT || part == KEV_KCALL_INTR;
    unsigned c = kev_kcall_no(e);
    const char *s = c < QNX_KERCALL_NUM ? (exit ? qnx_kercalls[c].exit
                                                : entry ? qnx_kercalls[c].entry : NULL) : NULL;
    const char *ours = our_kercall(r, c);
    int spare = kcall_spare(r, c);
    if (exit && ours)
        our_kcall_exit(e, c, o);
    else if (exit && kcall_exit_head(e, spare, s, o))
        return;
    else if (entry && ours)
        our_kcall_args(e, ours, o, "the call's argument");
    else if (spare && entry)
        spare_entry(e, o);
    else if (!s)
        raw_words(o, e, "args", 0);
    else
        qnx_layout(r, e, s, o);
}

static uint64_t pair(const uint32_t *w, int hi_first)
{
    return hi_first ? (uint64_t)w[0] << 32 | w[1] : (uint64_t)w[1] << 32 | w[0];
}

// One word's bits as the field describes them (bits 0: the whole word).
static uint64_t word_bits(uint32_t w, const struct kev_field_desc *fd)
{
    return kev_field_bits(fd, w);
}

uint64_t kev_field_of_word(const struct kev_field_desc *fd, uint32_t w)
{
    return fd && fd->layout == KEV_L_WORD ? word_bits(w, fd) : 0;
}

const struct kev_field_desc *kev_field_desc_get(unsigned cls, unsigned ev, const char *name)
{
    const struct kev_event_desc *d = kev_event_describe(cls, ev);
    for (unsigned i = 0; d && i < d->nfields; i++)
        if (same(d->fields[i].name, name))
            return &d->fields[i];
    return NULL;
}

int kev_field_read(const struct kev_event *e, const struct kev_field_desc *fd, uint64_t *v)
{
    if (!fd || fd->word == KEV_W_NEXT)
        return 0;
    unsigned w = fd->word;
    switch (fd->layout) {
    case KEV_L_WORD:
        if (w >= e->nw)
            return 0;
        *v = word_bits(e->w[w], fd);
        return 1;
    case KEV_L_HI_LO:
    case KEV_L_LO_HI:
        if (fd->layout == KEV_L_LO_HI && w + 1 == e->nw) { // its low word alone, as decoded
            *v = e->w[w];
            return 1;
        }
        if (w + 1 >= e->nw)
            return 0;
        *v = pair(&e->w[w], fd->layout == KEV_L_HI_LO);
        return 1;
    default:
        return 0;
    }
}

// The values of array field fd of e from word w (KEV_L_REST, KEV_L_PCS, KEV_L_ARGS) into out,
// at most max: their number. ref is the value of the field number fd->shift names: PCS's pc64
// (each pc two words, high first), ARGS's count (each argument two words, low first).
static unsigned array_values(const struct kev_event *e, const struct kev_field_desc *fd, unsigned w,
                             uint64_t ref, uint64_t *out, unsigned max)
{
    unsigned n = 0;
    if (fd->layout == KEV_L_REST || (fd->layout == KEV_L_PCS && !ref))
        for (unsigned k = w; k < e->nw && n < max; k++)
            out[n++] = e->w[k];
    else if (fd->layout == KEV_L_PCS)
        for (unsigned k = w; k + 1 < e->nw && n < max; k += 2)
            out[n++] = pair(&e->w[k], 1);
    else if (fd->layout == KEV_L_ARGS)
        for (unsigned k = w; k + 1 < e->nw && n < ref && n < max; k += 2)
            out[n++] = pair(&e->w[k], 0);
    return n;
}

unsigned kev_field_array(const struct kev_event *e, const struct kev_field_desc *fd, uint64_t *out,
                         unsigned max)
{
    const struct kev_event_desc *d = kev_event_describe(e->cls, e->ev);
    if (!d || !fd || fd < d->fields || fd >= d->fields + d->nfields || fd->word == KEV_W_NEXT ||
        (fd->layout != KEV_L_REST && fd->layout != KEV_L_PCS && fd->layout != KEV_L_ARGS))
        return 0;
    uint64_t ref = 0;
    if (fd->layout != KEV_L_REST && fd->shift < d->nfields)
        kev_field_read(e, &d->fields[fd->shift], &ref);
    return array_values(e, fd, fd->word, ref, out, max);
}

// An INT event's field called name (irq, pid), its row's, looked up once per event number.
static uint32_t int_field(const struct kev_event *e, unsigned which)
{
    static const struct kev_field_desc *fd[2][KEV_INT_HANDLER_EXIT + 1];
    static int ready;
    if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
        for (unsigned ev = 0; ev <= KEV_INT_HANDLER_EXIT; ev++) {
            fd[0][ev] = kev_field_desc_get(KEV_C_INT, ev, "irq");
            fd[1][ev] = kev_field_desc_get(KEV_C_INT, ev, "pid");
        }
        __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    }
    const struct kev_field_desc *d = e->ev <= KEV_INT_HANDLER_EXIT ? fd[which][e->ev] : NULL;
    if (d && d->layout == KEV_L_WORD && d->word < e->nw)    // (every INT field: inline)
        return kev_field_bits(d, e->w[d->word]);
    uint64_t v = 0;
    kev_field_read(e, d, &v);
    return (uint32_t)v;
}

uint32_t kev_int_irq(const struct kev_event *e)
{
    if (e->ev == KEV_INT_HANDLER_ENTER && e->nw < 4)    // format 1.02: [irq, pid]
        return e->nw ? e->w[0] : 0u;
    return int_field(e, 0);
}

uint32_t kev_int_handler_pid(const struct kev_event *e)
{
    if (e->ev == KEV_INT_HANDLER_ENTER && e->nw < 4)
        return e->nw >= 2 ? e->w[1] : 0u;
    return int_field(e, 1);
}

// A byte field (KEV_L_BYTES) at word w, field `shift` its length in bytes (its value in vals),
// as hex text; *next the word after it. 0 when o is full.
static int bytes_field(const struct kev_reader *r, const struct kev_event *e,
                       const struct kev_field_desc *fd, unsigned w, const uint64_t *vals,
                       struct kev_fields *o, unsigned *next)
{
    uint8_t b[KEV_IMAGE_ID_MAX];
    uint64_t want = fd->shift < KEV_MAX_FIELDS ? vals[fd->shift] : 0;
    size_t len = want < sizeof(b) ? (size_t)want : sizeof(b);
    size_t got = w < e->nw ? kev_event_bytes(r, e, w, b, len) : 0;
    static const char hex[] = "0123456789abcdef";
    struct kev_field *f = add(o, fd->name, KEV_K_STRING, fd->meaning);
    if (!f)
        return 0;
    f->str = text_begin(o);
    for (size_t k = 0; k < got; k++) {
        text_put(o, hex[b[k] >> 4]);
        text_put(o, hex[b[k] & 15u]);
    }
    text_end(o);
    *next = w + (unsigned)((len + 3u) / 4u);
    return 1;
}

// A user event's payload (KEV_L_USER): its text when it is a string event, else its words. A
// string event takes two slots or more and its text and NUL fill them: 8 bytes a slot, the
// last padded (a text under 8 bytes is padded to 9, docs/trace-api.md).
static void user_field(const struct kev_reader *r, const struct kev_event *e,
                       const struct kev_field_desc *fd, struct kev_fields *o)
{
    const char *s = NULL;
    if (e->nslots >= 2) {
        size_t mark = o->ntext;
        string_at(r, e, 0, o, &s);
        size_t len = o->ntext - mark - 1;
        size_t slots = (len + 1u + 7u) / 8u < 2u ? 2u : (len + 1u + 7u) / 8u;
        int printable = len > 0;
        for (size_t k = 0; k < len && printable; k++)
            printable = (unsigned char)s[k] >= 0x20 && (unsigned char)s[k] < 0x7f;
        if (!printable || slots < e->nslots) {
            o->ntext = mark;
            s = NULL;
        }
    }
    struct kev_field *f;
    if (!s)
        raw_words(o, e, fd->name, 0);
    else if ((f = add(o, "text", KEV_K_STRING, "the string (INSERTUSRSTREVENT)")))
        f->str = s;
}

// Row field i of e (fd, its word w: fixed, or the one after the last field's) into o; *val its
// value (a later field's count or length). *next: the word after it (unchanged when e is too
// short for a one-word field). 0 when o is full.
static int row_field(const struct kev_reader *r, const struct kev_event *e,
                     const struct kev_field_desc *fd, unsigned w, const uint64_t *vals,
                     uint64_t *val, struct kev_fields *o, unsigned *next)
{
    struct kev_field *f;
    switch (fd->layout) {
    case KEV_L_WORD:
        if (w >= e->nw)
            return 1;
        if (!(f = add(o, fd->name, fd->kind, fd->meaning)))
            return 0;
        f->v = word_bits(e->w[w], fd);
        f->names = fd->names;
        *val = f->v;
        *next = w + 1;
        return 1;
    case KEV_L_HI_LO:
    case KEV_L_LO_HI:
        if (w + 1 >= e->nw) { // a low-word-first pair with its low word alone: that word
            if (fd->layout == KEV_L_LO_HI && w < e->nw && (f = add(o, fd->name, fd->kind, fd->meaning)))
                f->v = e->w[w];
            *next = e->nw;
            return 1;
        }
        if (!(f = add(o, fd->name, fd->kind, fd->meaning)))
            return 0;
        f->v = pair(&e->w[w], fd->layout == KEV_L_HI_LO);
        *next = w + 2;
        return 1;
    case KEV_L_STRING:
        if (!(f = add(o, fd->name, KEV_K_STRING, fd->meaning)))
            return 0;
        *next = w + string_at(r, e, w, o, &f->str);
        return 1;
    case KEV_L_BYTES:
        return bytes_field(r, e, fd, w, vals, o, next);
    case KEV_L_REST:
    case KEV_L_PCS:
    case KEV_L_ARGS:
        if (!(f = add(o, fd->name, fd->kind, fd->meaning)))
            return 0;
        f->arr = vals_begin(o);
        f->n = array_values(e, fd, w, vals[fd->shift % KEV_MAX_FIELDS], o->vals + o->nvals,
                            (unsigned)(NELEM(o->vals) - o->nvals));
        o->nvals += f->n;
        *next = e->nw;
        return 1;
    case KEV_L_USER:
        user_field(r, e, fd, o);
        *next = e->nw;
        return 1;
    default:
        return 1;
    }
}

unsigned kev_fields_decode(const struct kev_reader *r, const struct kev_event *e,
                           struct kev_fields *o)
{
    const struct kev_event_desc *d = kev_event_describe(e->cls, e->ev);
    o->desc = d;
    o->n = 0;
    o->ntext = 0;
    o->nvals = 0;
    o->name = kev_event_title_of(d, e->cls, e->ev, o->namebuf, sizeof(o->namebuf));
    if (!d) {
        raw_words(o, e, "words", 0);
        return o->n;
    }
    if (d->kcall) {
        kcall_fields(r, e, o);
        return o->n;
    }
    unsigned next = 0;      // the word after the last field's
    uint64_t vals[KEV_MAX_FIELDS] = { 0 }; // each row field's value (counts, lengths)
    for (unsigned i = 0; i < d->nfields; i++) {
        const struct kev_field_desc *fd = &d->fields[i];
        unsigned w = fd->word == KEV_W_NEXT ? next : fd->word;
        if (!row_field(r, e, fd, w, vals, &vals[i], o, &next))
            break;
    }
    return o->n;
}

const struct kev_field *kev_field_get(const struct kev_fields *fs, const char *name)
{
    for (unsigned i = 0; i < fs->n; i++)
        if (same(fs->f[i].name, name))
            return &fs->f[i];
    return NULL;
}

int kev_field_num(const struct kev_field *f, uint64_t *v)
{
    if (!f || KEV_K_IS_ARRAY(f->kind) || f->kind == KEV_K_STRING)
        return 0;
    *v = f->v;
    return 1;
}

const char *kev_field_text(const struct kev_field *f)
{
    return f->kind == KEV_K_ERRNO ? kev_errno_name((unsigned)f->v)
           : f->kind == KEV_K_ENUM && f->names ? f->names((unsigned)f->v) : NULL;
}
