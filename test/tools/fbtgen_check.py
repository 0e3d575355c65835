#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# fbtgen's decoders and slots held to binutils' objdump (test/tools/test_fbtgen.sh; docs/fbt.md,
# "How it is checked"). Over a linked image:
#  1. every instruction fbtgen decodes in a kernel function starts where objdump's does and has
#     its length;
#  2. what it says of control flow is what objdump prints: its calls are bl/call to the same
#     target, its branches b/jmp to the same target, its returns pop pc / bx lr / ret, its
#     literal loads read the address objdump names; and every bl / call objdump prints in those
#     functions is a call for fbtgen; an i386 switch's table jump reads a table whose first
#     address lies in its function;
#  3. every site's slot, disassembled by objdump from the image the table is linked into, is
#     the displaced instruction (objdump's own text of it) followed by a branch back to the
#     instruction after it; an exit's slot is the exit itself; a pc-relative instruction's slot
#     loads the very value (the literal's word, or the address) and branches back; an i386
#     call's slot pushes the address after it and jumps to the callee.
#   fbtgen_check.py FBTGEN OBJDUMP RULES FIRST.elf FINAL.elf
import re
import subprocess
import sys
import tempfile

fbtgen, objdump, rules, first, final = sys.argv[1:6]
arch = "arm" if "arm" in objdump else "a64" if "aarch64" in objdump else "x86"

def run(*a):
    return subprocess.run(a, check=True, capture_output=True, text=True).stdout

# objdump's instructions: address -> (length, mnemonic, operands)
LINE = re.compile(r"^\s+([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(\S+)\s*(.*)$")
def objdump_insns(path, *extra):
    out = {}
    for line in run(objdump, "-d", "-w", *extra, path).splitlines():
        m = LINE.match(line)
        if not m:
            continue
        addr, raw, mn, ops = int(m.group(1), 16), m.group(2), m.group(3), m.group(4)
        if mn.startswith("."):      # .word, .short: data in code
            continue
        n = sum(len(w) for w in raw.split()) // 2
        out[addr] = (n, mn, ops.split("\t")[0].split(" @")[0].split(" //")[0].strip(), ops)
    return out

def target_of(ops):
    m = re.search(r"\b([0-9a-f]+) <", ops)
    return int(m.group(1), 16) if m else None

def literal_of(ops):                 # ARM: "[pc, #12]	@ (13b4c <f+0x14>)"
    m = re.search(r"@ \(([0-9a-f]+)", ops)
    return int(m.group(1), 16) if m else None

bad = []
def fail(msg):
    if len(bad) < 40:
        print("#", msg)
    bad.append(msg)

od = objdump_insns(first)
insns = []
for line in run(fbtgen, "--insns", first).splitlines():
    a, n, cls, tgt, fn = line.split()
    insns.append((int(a, 16), int(n), cls, int(tgt, 16), fn))
funcs = {fn for *_, fn in insns}

# each function's span, and the words of the data a switch's table jump reads (x86)
fspan = {}
for a, n, cls, tgt, fn in insns:
    lo = fspan[fn].start if fn in fspan else a
    fspan[fn] = range(lo, a + n)
rodata = {}   # (the kernel linker script puts .rodata into .text)
if arch == "x86":
    for line in run(objdump, "-s", "-j", ".text", first).splitlines():
        m = re.match(r"^ ([0-9a-f]+) ((?:[0-9a-f]{1,8} ?){1,4})", line)
        if m:
            for k, w in enumerate(m.group(2).split()):
                rodata[int(m.group(1), 16) + 4 * k] = int.from_bytes(bytes.fromhex(w), "little")
def tabword(addr):
    return rodata.get(addr)

# 1 and 2
n_ok = 0
for a, n, cls, tgt, fn in insns:
    o = od.get(a)
    if o is None:
        fail("%s: fbtgen decodes an instruction at %#x, objdump none" % (fn, a))
        continue
    if o[0] != n:
        fail("%s+%#x: length %d, objdump %d (%s %s)" % (fn, a, n, o[0], o[1], o[2]))
        continue
    mn, ops = o[1], o[3]
    base = mn.split(".")[0]
    if cls == "call":
        if base not in ("bl", "call") or target_of(ops) != tgt:
            fail("%#x: a call of %#x for fbtgen, objdump: %s %s" % (a, tgt, mn, ops))
    elif cls in ("branch", "cbranch"):
        if not re.match(r"^(b|cbn?z|tbn?z|j[a-z]+)", base) or target_of(ops) != tgt:
            fail("%#x: a branch to %#x for fbtgen, objdump: %s %s" % (a, tgt, mn, ops))
    elif cls == "ret":
        if arch == "arm":   # a return in an IT block carries its condition: popne, bxeq
            base = re.sub(r"(eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)$", "", base)
        ok = (arch == "arm" and ((base in ("pop", "ldmia", "ldr", "ldm") and "pc" in ops) or
                                 (base == "bx" and ops == "lr") or (base == "mov" and ops == "pc, lr"))) \
            or (arch == "a64" and base == "ret") or (arch == "x86" and base.startswith("ret"))
        if not ok:
            fail("%#x: a return for fbtgen, objdump: %s %s" % (a, mn, ops))
    elif cls == "pcrel" and arch == "arm" and base == "ldr" and literal_of(ops) is not None:
        if literal_of(ops) != tgt:
            fail("%#x: a literal at %#x for fbtgen, objdump %s" % (a, tgt, ops))
    elif cls == "jtab" and arch == "x86":
        # jmp *TABLE(,%reg,4): a switch's dispatch, its table's first address inside the function
        m = re.match(r"^\*0x([0-9a-f]+)\(,%e[a-z]+,4\)$", o[2])
        if not m or tabword(int(m.group(1), 16)) not in fspan.get(fn, range(0)):
            fail("%#x: a switch's table jump for fbtgen, objdump: %s %s" % (a, mn, ops))
    elif base in ("bl", "call") and cls != "call" and not ops.startswith("*"):
        fail("%#x: objdump's %s %s is no call for fbtgen (%s)" % (a, mn, ops, cls))
    n_ok += 1
print("# %d instructions of %d functions decoded as objdump decodes them" % (n_ok, len(funcs)))

# 3: the slots, in the final image
with tempfile.NamedTemporaryFile(suffix=".S") as t, tempfile.NamedTemporaryFile() as sl:
    run(fbtgen, "--rules", rules, "-o", t.name, "--slots", sl.name, first)
    sites = [l.split() for l in open(sl.name).read().splitlines()]
fin = objdump_insns(final)
# .fbt is one blob, its table before its slots: objdump's sweep over the table's bytes can end
# inside the first slot (an x86 instruction has no alignment), so the slots are read again from
# their own start
if sites:
    fin.update(objdump_insns(final, "--start-address=%#x" % min(int(s[1], 16) for s in sites)))
words = {}
for line in run(objdump, "-s", "-j", ".fbt", "-j", ".text", final).splitlines():
    m = re.match(r"^ ([0-9a-f]+) ((?:[0-9a-f]{1,8} ?){1,4})", line)
    if m:
        base_addr = int(m.group(1), 16)
        for k, w in enumerate(m.group(2).split()):
            words[base_addr + 4 * k] = int.from_bytes(bytes.fromhex(w), "little")
def word_at(addr):
    b = addr & ~3
    lo = words.get(b)
    if lo is None:
        return None
    if addr == b:
        return lo
    hi = words.get(b + 4, 0)
    return ((lo | hi << 32) >> (8 * (addr - b))) & 0xffffffff

nslots = 0
for site, slot, kind, n, fn in sites:
    site, slot, kind, n = int(site, 16), int(slot, 16), int(kind), int(n)
    orig, s0 = od.get(site), fin.get(slot)
    if orig is None or s0 is None:
        fail("%s: site %#x or its slot %#x not disassembled" % (fn, site, slot))
        continue
    nxt = fin.get(slot + s0[0])
    back = site + n
    mn = orig[1].split(".")[0]
    jump_back = lambda i: i is not None and i[1].split(".")[0] in ("b", "jmp") and target_of(i[3]) == back
    if kind & 2 or (mn in ("b", "jmp") and not (kind & 1)):   # an exit: the exit itself
        if mn in ("b", "jmp"):   # a tail call: a branch to the same callee
            good = s0[1].split(".")[0] in ("b", "jmp") and target_of(s0[3]) == target_of(orig[3])
        else:
            good = (s0[1], s0[2]) == (orig[1], orig[2])
        if not good:
            fail("%s: exit %#x (%s %s), slot %#x: %s %s" % (fn, site, orig[1], orig[2], slot, s0[1], s0[2]))
    elif arch == "arm" and mn == "ldr" and literal_of(orig[3]) is not None:
        rt = orig[2].split(",")[0]
        v, sv = word_at(literal_of(orig[3])), word_at(slot + 8)
        if not (s0[1] == "ldr.w" and s0[2].startswith(rt + ",") and jump_back(nxt) and v == sv):
            fail("%s: literal load %s %s, slot %s %s / %s, value %s vs %s" %
                 (fn, orig[1], orig[2], s0[1], s0[2], nxt, v, sv))
    elif arch == "x86" and mn == "call" and target_of(orig[3]) is not None:
        # call rel32 out of line: push the return address, then jmp to the callee
        if not (s0[1] == "push" and s0[2] == "$%#x" % back and nxt is not None and
                nxt[1] == "jmp" and target_of(nxt[3]) == target_of(orig[3])):
            fail("%s: %s %s, slot %s %s then %s" % (fn, orig[1], orig[2], s0[1], s0[2], nxt))
    elif arch == "arm" and mn in ("cbz", "cbnz"):
        taken = fin.get(target_of(s0[3]) or 0)
        if not (s0[1] == mn and jump_back(nxt) and taken and target_of(taken[3]) == target_of(orig[3])):
            fail("%s: %s %s, slot %s %s" % (fn, orig[1], orig[2], s0[1], s0[2]))
    elif arch == "a64" and (mn in ("cbz", "cbnz", "tbz", "tbnz") or orig[1].startswith("b.")):
        # the test, taken to the branch at +8 to the old target; else the branch back at +4
        taken = fin.get(target_of(s0[3]) or 0)
        if not (s0[1] == orig[1] and target_of(s0[3]) == slot + 8 and jump_back(nxt) and taken
                and target_of(taken[3]) == target_of(orig[3])):
            fail("%s: %s %s, slot %s %s" % (fn, orig[1], orig[2], s0[1], s0[2]))
    elif arch == "a64" and mn in ("ldr", "ldrsw") and target_of(orig[3]) is not None:
        # ldr xN, [pc + 8] of the literal's value (zero- or sign-extended), then back
        rt = orig[2].split(",")[0]
        lo, hi = word_at(target_of(orig[3])), word_at(target_of(orig[3]) + 4)
        want = (lo | hi << 32) if rt.startswith("x") and mn == "ldr" else \
               (lo - (1 << 32 if mn == "ldrsw" and lo >> 31 else 0)) & (1 << 64) - 1
        got = word_at(slot + 8) | word_at(slot + 12) << 32
        if not (s0[1] == "ldr" and target_of(s0[3]) == slot + 8 and jump_back(nxt) and want == got):
            fail("%s: literal load %s %s, slot %s %s, value %#x vs %#x" %
                 (fn, orig[1], orig[2], s0[1], s0[2], want, got))
    elif mn in ("bl", "call", "adr", "adrp") or "pc" in orig[2].split(",")[1:]:
        pass    # rewritten forms the live tests run (test_fbt_gdb.sh); their values are checked there
    else:
        if (s0[1], s0[2]) != (orig[1], orig[2]) or not jump_back(nxt):
            fail("%s: first instruction %s %s, slot %s %s then %s" %
                 (fn, orig[1], orig[2], s0[1], s0[2], nxt))
    nslots += 1
print("# %d sites' slots checked" % nslots)
print("RESULT %d %d %d" % (n_ok, nslots, len(bad)))
