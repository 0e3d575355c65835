# SPDX-License-Identifier: MIT
# gdb-multiarch script for scripts/insns-per-function.sh: attached to QEMU's gdbstub, it runs
# the image to a phase (INSNS_PHASE, a gdb location hit once when the phase starts; optional),
# then to the kernel entry INSNS_ENTRY past INSNS_SKIP hits, and single-steps from there to
# the next time that entry is reached (one operation of a benchmark loop: user code, the
# exception vector, the kernel's work, the return), INSNS_OPS times. For each operation it
# prints the instructions stepped, in total and per function (the ELF symbol of each pc;
# "user" for code outside the kernel's image).
import collections
import os

import gdb

gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("target remote :%s" % os.environ["INSNS_PORT"])
if os.environ.get("INSNS_PHASE"):
    gdb.execute("break %s" % os.environ["INSNS_PHASE"])
    gdb.execute("continue")
    gdb.execute("delete")
bp = gdb.Breakpoint(os.environ["INSNS_ENTRY"])
bp.ignore_count = int(os.environ.get("INSNS_SKIP", "300"))
gdb.execute("continue")
gdb.execute("delete")
start = int(gdb.parse_and_eval("$pc"))
for op in range(int(os.environ.get("INSNS_OPS", "2"))):
    counts = collections.OrderedDict()
    n = 0
    while n < 100000:
        gdb.execute("stepi", False, True)
        pc = int(gdb.parse_and_eval("$pc"))
        n += 1
        sym = gdb.execute("info symbol 0x%x" % pc, to_string=True).split()
        fn = sym[0] if sym and sym[0] != "No" else "user"
        counts[fn] = counts.get(fn, 0) + 1
        if pc == start:
            break
    print("INSNS op %d total %d" % (op, n))
    for fn, c in counts.items():
        print("INSNS   %-36s %d" % (fn, c))
gdb.execute("kill")
