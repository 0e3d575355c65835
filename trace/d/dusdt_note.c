// SPDX-License-Identifier: MIT
// Reading a program's USDT notes (d/dusdt_note.h) from their bytes: no allocation, no libc,
// every length checked against the bytes given (the kernel runs it over a program's image).
#include <d/dusdt_note.h>
#include <trace/kev_bytes.h>

#define STAPSDT_TYPE 3u

// The NUL-terminated string at s within [s, end), and *next past its NUL; 0 if none ends there.
static const char *string_in(const uint8_t *s, const uint8_t *end, const uint8_t **next)
{
    for (const uint8_t *c = s; c < end; c++)
        if (*c == 0) {
            *next = c + 1;
            return (const char *)s;
        }
    return 0;
}

int dusdt_note_next(const uint8_t *notes, uint32_t size, unsigned width, uint32_t *off,
                    struct dusdt_note *out)
{
    static const uint8_t owner[8] = { 's', 't', 'a', 'p', 's', 'd', 't', 0 };
    while (*off < size) {
        uint32_t at = *off;
        if (size - at < 12)
            return -1;
        uint32_t namesz = kev_get_le32(notes + at), descsz = kev_get_le32(notes + at + 4);
        uint32_t type = kev_get_le32(notes + at + 8);
        uint32_t name_pad = (namesz + 3u) & ~3u, desc_pad = (descsz + 3u) & ~3u;
        if (namesz > size || descsz > size || name_pad < namesz || desc_pad < descsz ||
            name_pad + desc_pad > size - at - 12)
            return -1;
        const uint8_t *name = notes + at + 12, *desc = name + name_pad;
        *off = at + 12 + name_pad + desc_pad;
        int ours = type == STAPSDT_TYPE && namesz == sizeof(owner);
        for (unsigned i = 0; ours && i < sizeof(owner); i++)
            ours = name[i] == owner[i];
        if (!ours)
            continue;
        const uint8_t *end = desc + descsz, *s = desc + 3u * width;
        if (descsz < 3u * width + 3u ||
            !(out->prov = string_in(s, end, &s)) || !(out->name = string_in(s, end, &s)) ||
            !(out->args = string_in(s, end, &s)))
            return -1;
        out->pc = kev_get_le(desc, width);
        out->base = kev_get_le(desc + width, width);
        out->sem = kev_get_le(desc + 2u * width, width);
        return 1;
    }
    return 0;
}
