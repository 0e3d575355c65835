// SPDX-License-Identifier: MIT
// The fbt table: which kernel functions the fbt provider can probe, where and how. Written at
// build time by tools/fbtgen from the linked kernel (docs/fbt.md) and linked into the same
// image in a second pass, after all code, so that no code address moves; read by the kernel
// (kernel/kfbt.c: where to patch, what to execute out of line), by the board's dtrace (the
// probe names, copied out by the kernel: DTrace(KDT_FBT_TABLE)) and by the host's dtrace and
// dcompile (from the image's ELF file, --kernel FILE). One format for all: freestanding C,
// little-endian, every kernel address in 32 bits (the kernel and its text lie below 4 GB on
// every board).
//
// Layout: the header, the functions (sorted by address), the string table (names), then the
// sites (sorted by address) and the slots (the code executed out of line). The first
// dh_desc_len bytes (header, functions, strings) describe the probes; the rest is the
// kernel's alone, so a description copied out without it is a valid table too.
#ifndef D_DFBT_H
#define D_DFBT_H

#include <stddef.h>
#include <stdint.h>

#define DFBT_MAGIC   0x5442464bu   // "KFBT" read as a little-endian word
#define DFBT_VERSION 1u
#define DFBT_MAXARGS 8u            // typed entry arguments per function (more: untyped)
#define DFBT_MAXFUNCS 0x8000u      // functions a table may hold (probe ids: d/dprobes.h)
#define DFBT_SLOT_BYTES 16u        // one site's out-of-line code

// The instruction sets a table may describe (dh_arch).
enum dfbt_arch { DFBT_ARCH_NONE = 0, DFBT_ARCH_THUMB2 = 1, DFBT_ARCH_A64 = 2, DFBT_ARCH_I386 = 3 };

struct dfbt_hdr {
    uint32_t dh_magic, dh_version;
    uint32_t dh_arch;       // enum dfbt_arch
    uint32_t dh_addr;       // the address the table is linked at (its slots run there)
    uint32_t dh_nfuncs, dh_funcs_off;
    uint32_t dh_strs_off, dh_strs_len;
    uint32_t dh_desc_len;   // header + functions + strings
    uint32_t dh_nsites, dh_sites_off;
    uint32_t dh_slots_off, dh_slots_len;
    uint32_t dh_len;        // the whole table
    uint32_t dh_text_lo, dh_text_hi;   // the kernel text the sites lie in
};

// Why a function's entry or return cannot be probed (dfbt_why_text says it in words).
enum dfbt_why {
    DFBT_OK = 0,
    DFBT_WHY_ENTRY_PATH,    // exception entry or exit code
    DFBT_WHY_PROBE_PATH,    // the fbt trap handler, the D provider, the D engine
    DFBT_WHY_RING,          // the trace ring's writer
    DFBT_WHY_LOCK,          // lock code (runs before the lock is held)
    DFBT_WHY_BOOT,          // early boot
    DFBT_WHY_NOTRAP,        // runs where the trap cannot be taken (a fault handler, the idle
                            // thread, outside the kernel lock)
    DFBT_WHY_CALLEE,        // called from code of one of the kinds above (df_why_func says which)
    DFBT_WHY_INSN,          // its first instruction cannot be displaced
    DFBT_WHY_LOOP,          // a branch inside the function targets its first instruction
    DFBT_WHY_NORETURN,      // (return) it has no return instruction
    DFBT_WHY_EXIT,          // (return) it can leave by an instruction that cannot be replaced
    DFBT_WHY_NODATA,        // a symbol with no code the decoder could read (data, veneer)
    DFBT_WHY_PART,          // a part of another function (GCC's name.cold): entered by a jump,
                            // it leaves by its function's returns
    DFBT_WHY_COUNT
};

// Argument and return types (df_arg_type, df_ret_type), from the kernel's DWARF: the size in
// bytes in the low nibble, DFBT_T_SIGNED for a signed integer, DFBT_T_PTR for a pointer.
// DFBT_T_NONE: no such value, or one D cannot type (a struct passed by value).
#define DFBT_T_NONE   0x00u
#define DFBT_T_SIZE(t) ((t) & 0x0fu)
#define DFBT_T_SIGNED 0x10u
#define DFBT_T_PTR    0x20u
#define DFBT_T_BOOL   0x40u
// Where an argument is at the function's first instruction (df_arg_loc, and df_arg_hi for the
// high word of an 8-byte value on a 32-bit architecture): a register by its DWARF number
// (DFBT_LOC_REG: Thumb-2 r0-r15, A64 x0-x30, i386 eax ecx edx ebx esp ebp esi edi), or the
// stack word k above the caller's stack pointer (DFBT_LOC_STACK + k: the canonical frame
// address plus k words of 4 bytes, 8 on A64). DFBT_LOC_NONE: not passed (optimised away).
#define DFBT_LOC_REG   0x00u
#define DFBT_LOC_STACK 0x40u
#define DFBT_LOC_NONE  0xffu

struct dfbt_func {
    uint32_t df_addr;       // first instruction (Thumb: bit 0 clear)
    uint32_t df_size;
    uint32_t df_name;       // offset in the string table
    uint32_t df_site;       // its first site: the entry site (when probeable), then returns
    uint16_t df_nsites;
    uint8_t df_entry_why;   // enum dfbt_why (DFBT_OK: probeable)
    uint8_t df_return_why;
    uint16_t df_why_func;   // DFBT_WHY_CALLEE: the function index it is reached from
    uint8_t df_nargs;       // arguments described below (at most DFBT_MAXARGS)
    uint8_t df_ret_type;
    uint8_t df_arg_type[DFBT_MAXARGS];
    uint8_t df_arg_loc[DFBT_MAXARGS];
    uint8_t df_arg_hi[DFBT_MAXARGS];
};

// Site kinds (ds_kind, flags): the function's first instruction, a return, a tail call (a
// branch out of the function: its return fires there, before the callee's entry).
#define DFBT_S_ENTRY  1u
#define DFBT_S_RETURN 2u
#define DFBT_S_TAIL   4u
// Where the caller's return address is at a site (ds_ra): in the link register (Thumb-2 lr,
// A64 x30), or the word k at the stack pointer (DFBT_RA_SP + k: a pop of pc, i386's ret).
#define DFBT_RA_LR 0u
#define DFBT_RA_SP 1u

struct dfbt_site {
    uint32_t ds_addr;       // the instruction the trap replaces
    uint32_t ds_orig;       // its first bytes (ds_len of them, at most 4), as linked
    uint32_t ds_slot;       // address of its out-of-line code: the instruction (or an
                            // equivalent of it) then a branch back; 0: none (not needed)
    uint16_t ds_func;
    uint8_t ds_kind;        // DFBT_S_*
    uint8_t ds_len;         // bytes of the instruction
    uint8_t ds_ra;          // DFBT_RA_*
    uint8_t ds_pad[3];
};

_Static_assert(sizeof(struct dfbt_hdr) == 64, "dfbt_hdr layout");
_Static_assert(sizeof(struct dfbt_func) == 48, "dfbt_func layout");
_Static_assert(sizeof(struct dfbt_site) == 20, "dfbt_site layout");

// A checked table: pointers into the caller's copy.
struct dfbt {
    const struct dfbt_hdr *hdr;
    const struct dfbt_func *funcs;
    const char *strs;
    const struct dfbt_site *sites;   // NULL in a description copied out
    const uint8_t *slots;
    uint32_t nfuncs, nsites;
};

// dfbt_open: checks the table in buf (len bytes: the whole table, or its description alone)
// and fills *t; 0, or -1 with err set (magic, version, sizes and offsets, every name inside
// the string table and NUL-terminated, sites inside their functions).
int dfbt_open(struct dfbt *t, const void *buf, size_t len, char *err, size_t errlen);
// dfbt_open_desc: the same for the description alone (the board's dtrace: names and types).
int dfbt_open_desc(struct dfbt *t, const void *buf, size_t len, char *err, size_t errlen);
// dfbt_name: function f's name ("" past the end).
const char *dfbt_name(const struct dfbt *t, uint32_t f);
// dfbt_lookup: the function holding addr, or -1.
int dfbt_lookup(const struct dfbt *t, uint64_t addr);
// dfbt_why_text: the reason, in words, a function cannot be probed ("" for DFBT_OK).
const char *dfbt_why_text(unsigned why);
// dfbt_type_name: a C name for a DFBT_T_* type ("int32_t", "void *"...).
const char *dfbt_type_name(unsigned type);

#endif
