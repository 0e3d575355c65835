// SPDX-License-Identifier: MIT
// The host's one JSON string writer: every tool that writes JSON (kev2json, kevstat --json,
// kevsql, kevreport, kevweb, the analysis pass's objects) escapes its strings here, by one rule
// (RFC 8259): '"' and '\' with a backslash, the C0 controls and DEL as \u00XX, well-formed
// UTF-8 kept as it is, and a byte that starts no well-formed UTF-8 character as \u00XX (the
// character of that code, so that the output is always valid UTF-8). JSON_PAGE adds what JSON
// inside an HTML <script> element needs: '<', '>' and '&' as \u003c, \u003e, \u0026 (no
// "</script>" nor "<!--" can end or confuse the element) and U+2028, U+2029 as \u2028, \u2029
// (line terminators to JavaScript). Names from a trace are a program's choosing: nothing in
// them can leave the string they are written into.
#ifndef TOOLS_JSON_OUT_H
#define TOOLS_JSON_OUT_H

#include <stddef.h>
#include <stdio.h>

#define JSON_PAGE 1u // the <script>-safe escapes too

// Where escaped text goes: n bytes at p, in order.
typedef void json_sink(void *user, const char *p, size_t n);

// s (NUL-ended) as a JSON string, quotes included, given to put in pieces.
void json_str_to(json_sink *put, void *user, const char *s, unsigned flags);
// The same into a stdio stream.
void json_str(FILE *f, const char *s, unsigned flags);
// A JSON text already written (by json_str without JSON_PAGE, numbers, punctuation) made fit
// for a <script> element: the JSON_PAGE escapes applied to its n bytes. The characters they
// change can only stand inside its strings, so the value it denotes is the same.
void json_page_copy(FILE *f, const char *json, size_t n);

#endif
