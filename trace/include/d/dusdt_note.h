// SPDX-License-Identifier: MIT
// A program's USDT notes (docs/usdt.md), as Debian's sys/sdt.h writes them into .note.stapsdt
// and the programs' linker scripts load them into the image: ELF notes, each a header
// (name size, descriptor size, type; 4 bytes each), the name "stapsdt" padded to 4 bytes, and
// a descriptor of type 3: the site's address, the .stapsdt.base address it was linked with and
// its semaphore's address (0: none), each `width` bytes (the program's pointer), then the
// provider, the name and the arguments' places, NUL-terminated. Read by the kernel from the
// image it loaded (kernel/kusdt.c): the only sites and semaphores it accepts are these.
#ifndef D_DUSDT_NOTE_H
#define D_DUSDT_NOTE_H

#include <stdint.h>

struct dusdt_note {
    uint64_t pc, base, sem;
    const char *prov, *name, *args;     // in the notes' own bytes
};

// dusdt_note_next: the next stapsdt note of notes[0, size) at or after *off (notes of other
// owners or types are passed over), in *out, with *off past it: 1; 0 when there is none
// after *off; -1 when the bytes at *off are not a well-formed note (a size past the end, a
// descriptor without its three strings): the reader stops there. width is 4 or 8.
int dusdt_note_next(const uint8_t *notes, uint32_t size, unsigned width, uint32_t *off,
                    struct dusdt_note *out);

#endif
