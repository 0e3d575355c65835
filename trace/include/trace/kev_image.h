// SPDX-License-Identifier: MIT
// What a process ran, from a capture: the decoder of SYSTEM IMAGE (0x208), which every host
// tool shares (traceprinter, the converters, kevstat, kevreport, dtrace -i). The layout is in
// trace/kev.h and docs/trace-events.md ("Images and build ids"). A malformed payload (too
// short for its id, an id longer than the kernel writes) is refused, never read past.
#ifndef TRACE_KEV_IMAGE_H
#define TRACE_KEV_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <trace/kev.h>
#include <trace/kev_decode.h>

#define KEV_IMAGE_NAME_MAX 512u

struct kev_image {
    unsigned pid;          // 0: the kernel's own image
    uint32_t base;         // where the image's first byte lies (a program's slot)
    unsigned id_len;       // the GNU build id's length in bytes, 0 when the image had none
    uint8_t id[KEV_IMAGE_ID_MAX];
    char name[KEV_IMAGE_NAME_MAX]; // the program's name; the kernel's: its image's ELF file,
                                   // as the build wrote it (raw bytes: escape them to print)
};

// 0 and *im filled, or -1 when e is not a well-formed IMAGE event.
int kev_image_decode(const struct kev_reader *r, const struct kev_event *e, struct kev_image *im);
// The id in lowercase hex, as readelf -n and debuginfod print it ("" when there is none).
void kev_image_id_hex(const uint8_t *id, unsigned len, char *buf, size_t n);
// One line for a printer: "pid:5 build_id:78087e... load:0x000c0000 name:stackfault" (the
// name made safe to print). Returns the snprintf length.
int kev_image_text(const struct kev_image *im, char *buf, size_t n);

#endif
