#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The kernel's layers as docs/ARCHITECTURE.md draws them, held against the code.

scripts/kernel_graph.py scans kernel/ (definitions, the names each file's bodies use, its
includes; each architecture's files with the portable ones) and this checks, as TAP lines:
  - the drawing names every kernel file in exactly one box;
  - every arrow (a file using a name another defines, or including it) points down the drawn
    rows or stays in its box, or crosses by a drawn gate and refers only to names the gate's
    headers declare: the core's hooks and emit helpers into tracing, kview.h back, the arch's
    upcalls (arch_upcall.h);
  - the gates carry what crosses: the drawing without them finds the arrows they carry wrong,
    each gate some (so the check above is not vacuous);
  - no cycle of files calling each other (an arch's upcalls aside: the drawn contract) holds
    more than MAX_CYCLE files, crosses two boxes, or holds an arch or a tracing file;
  - kernel/*.c has at most MAX_KMAX_IF "#if ... KMAX_CPUS" lines, each at file scope, and no
    function body of the kernel (headers and arch code too) holds one: the multiprocessor
    paths use kernel/smp.h and `if (KSMP)` there.
Host only, no build needed: about a second.
usage: test/tools/test_kernel_layers.py [ROOT]   (default: the tree this file is in)
"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(root, "scripts"))
import kernel_graph as kg  # noqa: E402

MAX_CYCLE = 12
MAX_KMAX_IF = 10
PAGE = os.path.join(root, "docs", "ARCHITECTURE.md")
n = 0
failed = 0


def ok(cond, what, detail=()):
    global n, failed
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
    if not cond:
        failed += 1
        for line in list(detail)[:40]:
            print("# " + line)


lay, bad, narrows, nwrong = kg.check_layers(root, PAGE)
nowhere = [b for b in bad if "boxes of the drawing" in b]
ok(not nowhere and len(lay.boxes) >= 4,
   "the drawing's %d boxes name every kernel file once" % len(lay.boxes), nowhere)
arrows = [b for b in bad if "boxes of the drawing" not in b]
ok(not arrows and narrows > 500,
   "every one of the kernel's %d file-to-file arrows follows the drawn layers and gates" % narrows,
   arrows)

# Not vacuous: each gate, taken away, leaves arrows that only it lets through.
for gate in lay.gates:
    kept = [g for g in lay.gates if g is not gate]
    saved = lay.gates
    lay.gates = kept
    _, bad2, _, nwrong2 = kg.check_layers(root, PAGE, lay)
    lay.gates = saved
    ok(nwrong2 > nwrong, "the gate %s -> %s (%s) carries %d arrows" %
       (gate[0], gate[1], " ".join(gate[2]), nwrong2 - nwrong))

# Cycles of calls, per architecture (its files with the portable ones), upcalls aside.
worst, crossing, with_arch, with_tracing = [], [], [], []
for arch in kg.ARCHES:
    for comp in kg.sccs(kg.call_graph_without_upcalls(root, arch, lay)):
        boxes = sorted({lay.box_of(f)[0][2] for f in comp})
        if len(comp) > len(worst):
            worst = comp
        if len(boxes) > 1:
            crossing.append("%s: %s" % (arch, " ".join(comp)))
        if "arch" in boxes:
            with_arch.append("%s: %s" % (arch, " ".join(comp)))
        if "tracing" in boxes:
            with_tracing.append("%s: %s" % (arch, " ".join(comp)))
ok(len(worst) <= MAX_CYCLE, "the largest cycle of files calling each other holds %d files "
   "(at most %d)" % (len(worst), MAX_CYCLE), [" ".join(worst)])
ok(not crossing, "no cycle of calls crosses two boxes of the drawing", crossing)
ok(not with_arch, "no cycle of calls holds an arch file", with_arch)
ok(not with_tracing, "no cycle of calls holds a tracing file", with_tracing)

# #if ... KMAX_CPUS: few, and never in a function body.
top, inside = [], []
for d, _, files in os.walk(os.path.join(root, "kernel")):
    for f in sorted(files):
        if not f.endswith((".c", ".h")):
            continue
        path = os.path.join(d, f)
        rel = os.path.relpath(path, root)
        for line, where in kg.kmax_ifs(path):
            if os.path.dirname(rel) == "kernel" and rel.endswith(".c"):
                top.append("%s:%d" % (rel, line))
                if where != "file":
                    inside.append("%s:%d (%s)" % (rel, line, where))
            elif where == "function":
                inside.append("%s:%d (in a function)" % (rel, line))
ok(len(top) <= MAX_KMAX_IF, "kernel/*.c holds %d '#if ... KMAX_CPUS' lines (at most %d)" %
   (len(top), MAX_KMAX_IF), top)
ok(not inside, "kernel/*.c's '#if ... KMAX_CPUS' lines are at file scope, and no function body "
   "of the kernel's holds one", inside)

print("1..%d" % n)
sys.exit(1 if failed else 0)
