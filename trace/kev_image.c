// SPDX-License-Identifier: MIT
// The decoder of SYSTEM IMAGE events (trace/kev_image.h): the one reading of their layout for
// every host tool, each field where the event table's row puts it: the id's bytes at its
// field's word, the name in the words after them.
#include <trace/kev_image.h>
#include <trace/kev_text.h>
#include <stdio.h>
#include <string.h>

static const struct kev_field_desc *fd(const char *name)
{
    return kev_field_desc_get(KEV_C_SYSTEM, KEV_SYS_IMAGE, name);
}

int kev_image_decode(const struct kev_reader *r, const struct kev_event *e, struct kev_image *im)
{
    const struct kev_field_desc *id = fd("build_id");
    uint64_t pid, len, load;
    if (!e || e->cls != KEV_C_SYSTEM || e->ev != KEV_SYS_IMAGE || !id ||
        !kev_field_read(e, fd("pid"), &pid) || !kev_field_read(e, fd("id_len"), &len) ||
        !kev_field_read(e, fd("load"), &load))
        return -1;
    unsigned idw = (unsigned)(len + 3u) / 4u;
    if (len > KEV_IMAGE_ID_MAX || e->nw < id->word + idw)
        return -1;
    memset(im, 0, sizeof(*im));
    im->pid = (unsigned)pid;
    im->base = (uint32_t)load;
    im->id_len = (unsigned)len;
    uint8_t bytes[KEV_IMAGE_ID_MAX + 4u];
    kev_event_bytes(r, e, id->word, bytes, 4u * idw);
    memcpy(im->id, bytes, len);
    uint8_t tmp[8u * KEV_MAX_COMBINE_SLOTS];
    size_t nb = kev_event_bytes(r, e, id->word + idw, tmp, sizeof(tmp));
    size_t k = 0;
    while (k < nb && k + 1 < sizeof(im->name) && tmp[k])
        k++;
    memcpy(im->name, tmp, k);
    im->name[k] = 0;
    return 0;
}

void kev_image_id_hex(const uint8_t *id, unsigned len, char *buf, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    for (unsigned i = 0; i < len && k + 2 < n; i++) {
        buf[k++] = hex[id[i] >> 4];
        buf[k++] = hex[id[i] & 15u];
    }
    if (n)
        buf[k] = 0;
}

int kev_image_text(const struct kev_image *im, char *buf, size_t n)
{
    char hex[2 * KEV_IMAGE_ID_MAX + 1], name[2 * KEV_IMAGE_NAME_MAX];
    kev_image_id_hex(im->id, im->id_len, hex, sizeof(hex));
    kev_text_safe(name, sizeof(name), (const uint8_t *)im->name, strlen(im->name));
    return snprintf(buf, n, "pid:%u build_id:%s load:0x%08x name:%s", im->pid,
                    im->id_len ? hex : "none", im->base, name);
}
