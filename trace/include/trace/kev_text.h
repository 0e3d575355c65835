// SPDX-License-Identifier: MIT
// Text from a capture (process and thread names) made safe to print on a terminal.
#ifndef TRACE_KEV_TEXT_H
#define TRACE_KEV_TEXT_H

#include <stddef.h>
#include <stdint.h>

// Copies the bytes of src (up to len, or its first NUL, which ends a name) into dst (size n, always ended with a
// NUL) so that no byte can act on a terminal, with the console's rules (kernel/kconsole.c):
// CR and ESC as \r and \e; every other C0 control but tab, and DEL, as \xNN; C1 controls
// (U+0080-U+009F in UTF-8, e.g. CSI as c2 9b) as \xc2\x9b. Unlike the console it also writes
// any byte that is not part of a well-formed UTF-8 sequence as \xNN (a lone 0x9b, a cut
// sequence), so that the result is valid UTF-8 for every consumer. Printable ASCII and
// well-formed UTF-8 text are kept as they are. An escape or a character that would not fit
// whole is left out. Returns the length written.
size_t kev_text_safe(char *dst, size_t n, const uint8_t *src, size_t len);
// The length of the well-formed UTF-8 sequence of a character above U+007F at s (at most len
// bytes), 0 when s does not start one (for writers that keep such text, e.g. JSON strings).
size_t kev_utf8_len(const uint8_t *s, size_t len);

#endif
