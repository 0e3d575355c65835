// SPDX-License-Identifier: MIT
// newlib-nano's printf family on the user runtime's formatter (ufmt.h), for programs linked
// with LIBC=newlib: nano's own formatter has no ll, z, j, t or hh length, so a 64-bit value
// printed "lu" where C99 programs print it whole (printf("%" PRIu64, v)). Every printf of
// newlib comes down to two functions, _vfprintf_r (to a stream: printf, fprintf, vprintf)
// and _svfprintf_r (to a string: sprintf, snprintf, asprintf); defining them, and the other
// symbols of the two archive members that hold nano's (vfprintf, vfiprintf and the i
// variants), keeps those members out of the link. newlib's wide-character printf (fwprintf)
// would bring one back and fail the link with a duplicate symbol: no program uses it.
// No floating point, as with nano without _printf_float: "%f" prints as written.
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <reent.h>
#include <ufmt.h>

int _svfprintf_r(struct _reent *r, FILE *fp, const char *fmt, va_list ap);
int _svfiprintf_r(struct _reent *r, FILE *fp, const char *fmt, va_list ap);

// To a stream: 64 characters at a time through newlib's own fwrite.
struct stream_sink {
    struct ufmt_sink out;   // first: ufmt hands it back
    struct _reent *r;
    FILE *fp;
    size_t used;
    int failed;
    char buf[64];
};

static void stream_flush(struct stream_sink *s)
{
    if (s->used && _fwrite_r(s->r, s->buf, 1, s->used, s->fp) != s->used)
        s->failed = 1;
    s->used = 0;
}

static void stream_put(struct ufmt_sink *o, char c)
{
    struct stream_sink *s = (struct stream_sink *)o;
    if (s->used == sizeof(s->buf))
        stream_flush(s);
    s->buf[s->used++] = c;
}

int _vfprintf_r(struct _reent *r, FILE *fp, const char *fmt, va_list ap)
{
    struct stream_sink s = { .out = { stream_put }, .r = r, .fp = fp };
    size_t total = ufmt_vformat(&s.out, fmt, ap);
    stream_flush(&s);
    return s.failed ? EOF : (int)total;
}

int _vfiprintf_r(struct _reent *r, FILE *fp, const char *fmt, va_list ap)
{
    return _vfprintf_r(r, fp, fmt, ap);
}

int vfprintf(FILE *fp, const char *fmt, va_list ap)
{
    return _vfprintf_r(_REENT, fp, fmt, ap);
}

int vfiprintf(FILE *fp, const char *fmt, va_list ap)
{
    return _vfprintf_r(_REENT, fp, fmt, ap);
}

// To a string: newlib's string FILE (fp->_p the next byte, fp->_w the room left, one byte
// kept by the caller for the NUL it writes). An asprintf buffer (__SMBF) grows by realloc;
// what does not fit a fixed one is counted, not stored, as snprintf wants.
struct string_sink {
    struct ufmt_sink out;
    struct _reent *r;
    FILE *fp;
    int failed;
};

static int string_grow(struct string_sink *s)
{
    FILE *fp = s->fp;
    size_t used = (size_t)(fp->_p - fp->_bf._base);
    size_t size = used * 2 + 64;
    unsigned char *b = _realloc_r(s->r, fp->_bf._base, size);
    if (!b) {
        s->failed = 1;
        fp->_flags |= __SERR;
        return -1;
    }
    fp->_bf._base = b;
    fp->_bf._size = (int)size;
    fp->_p = b + used;
    fp->_w = (int)(size - used - 1);    // room for the NUL the caller writes
    return 0;
}

static void string_put(struct ufmt_sink *o, char c)
{
    struct string_sink *s = (struct string_sink *)o;
    FILE *fp = s->fp;
    if (fp->_w <= 0 && (fp->_flags & __SMBF) && !s->failed && string_grow(s) < 0)
        return;
    if (fp->_w > 0) {
        *fp->_p++ = (unsigned char)c;
        fp->_w--;
    }
}

int _svfprintf_r(struct _reent *r, FILE *fp, const char *fmt, va_list ap)
{
    struct string_sink s = { .out = { string_put }, .r = r, .fp = fp };
    size_t total = ufmt_vformat(&s.out, fmt, ap);
    return s.failed ? EOF : (int)total;
}

int _svfiprintf_r(struct _reent *r, FILE *fp, const char *fmt, va_list ap)
{
    return _svfprintf_r(r, fp, fmt, ap);
}
