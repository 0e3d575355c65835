// SPDX-License-Identifier: MIT
// tool_read_file (tools/include/kevhost/tool_file.h).
#include <kevhost/tool_file.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

uint8_t *tool_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    uint8_t *d = malloc(cap);
    while (d) {
        n += fread(d + n, 1, cap - n, f);
        if (n < cap)
            break;
        cap *= 2;
        uint8_t *nd = realloc(d, cap);
        if (!nd)
            free(d);
        d = nd;
    }
    if (!d) {
        fclose(f);
        errno = ENOMEM;
        return NULL;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(d);
        errno = EIO;
        return NULL;
    }
    d[n] = 0; /* n < cap: the loop stops on a short read */
    *len = n;
    return d;
}
