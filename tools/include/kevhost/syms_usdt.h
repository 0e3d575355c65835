// SPDX-License-Identifier: MIT
// A USDT event's probe by name, for every reader of a capture (traceprinter, kevstat, kevsql,
// kevreport, kev2ctf, kev2json, kev2perfetto; docs/usdt.md "Over the capture"). A SYSTEM USDT
// event holds the site's address and the arguments as the kernel read them; the site's name
// (provider:probe), its program and each argument's size and sign are in the program's
// .note.stapsdt, the notes sys/sdt.h writes and readelf -n reads. The programs' ELF files are
// those the capture ran, found by build id as their frames are (tool_syms.h: --elf, the build
// directory, --symbols, the build-id caches, debuginfod); their notes are read once, at the
// first lookup, with the reader the kernel uses (d/dusdt_note.h). A site is named by its
// address alone, as a frame is: every program is linked at its own addresses. Single-threaded,
// process-wide; the table starts over with the lookup (syms_end, syms_trace).
#ifndef TOOLS_SYMS_USDT_H
#define TOOLS_SYMS_USDT_H

#include <stddef.h>
#include <stdint.h>
#include <trace/kev_events.h>

#define SYMS_USDT_ARGS 6u   // the arguments a site has at most (usdt.h, D's arg0-arg5)

// A site, as its program's note names it.
struct syms_usdt {
    uint64_t site;
    char provider[64], name[64];
    char probe[130];                // "provider:name", as LTTng-UST and Perfetto name events
    char module[64];                // the program ("usdtdemo")
    char function[128];             // the function that holds the site ("" when none does)
    unsigned nargs;                 // the note's argument count
    int8_t size[SYMS_USDT_ARGS];    // each argument's bytes, negative when signed (0: unknown)
};

// A USDT event read through the event table, its site named when a note names it.
struct syms_usdt_firing {
    uint64_t site;
    const struct syms_usdt *p;      // NULL: no ELF file of the capture names the site
    unsigned nargs;                 // the arguments recorded
    uint64_t arg[SYMS_USDT_ARGS];   // as the program passed them: cut to the note's size and,
                                    // when signed, sign-extended (as recorded when unnamed)
};

// syms_usdt: the site's probe, NULL when no file names it (or --no-symbols).
const struct syms_usdt *syms_usdt(uint64_t site);
// syms_usdt_firing: the USDT event whose fields fs holds (kev_fields_decode); 0, or -1 when fs
// is not a USDT event's or lacks its site.
int syms_usdt_firing(const struct kev_fields *fs, struct syms_usdt_firing *f);
// syms_usdt_value: argument k's recorded value v as the program passed it (p NULL: v).
uint64_t syms_usdt_value(const struct syms_usdt *p, unsigned k, uint64_t v);
// syms_usdt_signed: whether argument k is signed (the note says so).
int syms_usdt_signed(const struct syms_usdt_firing *f, unsigned k);
// syms_usdt_arg_text: argument k in decimal, signed when the note says so ("-25191").
void syms_usdt_arg_text(const struct syms_usdt_firing *f, unsigned k, char *out, size_t n);
// syms_usdt_text: the firing in a line: "demo:step (usdtdemo) arg0:3 arg1:-25191", or unnamed
// "site:0x000e04f8 arg0:3 arg1:18446744073709526425".
void syms_usdt_text(const struct syms_usdt_firing *f, char *out, size_t n);

#endif
