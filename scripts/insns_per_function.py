# SPDX-License-Identifier: MIT
# gdb-multiarch script for scripts/insns-per-function.sh (gdb-multiarch -x
# scripts/insns_per_function.py IMAGE.elf, run by it): attached to QEMU's gdbstub, it runs
# the image to a phase (INSNS_PHASE, a gdb location hit once when the phase starts; optional),
# then to the kernel entry INSNS_ENTRY past INSNS_SKIP hits, and from there lets the image run
# INSNS_OPS more operations (one operation of a benchmark loop: user code, the exception
# vector, the kernel's work, the return, from one reach of the entry to the next) with QEMU's
# execution log on (`monitor log exec,nochain`; QEMU started with -singlestep, so one logged
# block is one instruction, and its line names the instruction's ELF symbol).
#
# Why QEMU's log and not gdb's stepi: gdb steps over an AArch64 load-exclusive class
# instruction as the start of an atomic sequence, running on to the next store-exclusive
# class one in a single "step"; `ldar` ... `stlr` (the trace's writer handshake) are of that
# class, so stepping undercounted the traced paths by 11 instructions an event.
#
# The log is read here: for each distinct operation (its instructions per function), how many
# times it ran, most frequent first. The rarer shapes are the same loop meeting a timer tick
# (gdb's stops at the entry breakpoint let QEMU's virtual clock jump to the next timer
# deadline, so ticks come far more often than in a free run), a buffer switch, or an
# operation some of whose user instructions the log left out (seen after such a stop).
import collections
import os
import sys

if __name__ == "__main__" and sys.argv[1:2] in (["-h"], ["--help"]):     # run alone, not by gdb
    print(open(__file__).read().split("\nimport ")[0].replace("# ", "").split("\n", 1)[1])
    sys.exit(0)

import gdb

log = os.environ["INSNS_LOG"]
gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("target remote %s" % os.environ["INSNS_GDB"])
if os.environ.get("INSNS_USER"):   # a program's symbols, at the addresses it is linked at
    gdb.execute("add-symbol-file %s" % os.environ["INSNS_USER"])
if os.environ.get("INSNS_PHASE"):
    gdb.execute("break %s" % os.environ["INSNS_PHASE"])
    gdb.execute("continue")
    gdb.execute("delete")
entry = os.environ["INSNS_ENTRY"]
bp = gdb.Breakpoint(entry)
bp.ignore_count = int(os.environ.get("INSNS_SKIP", "300"))
gdb.execute("continue")
start = int(gdb.parse_and_eval("$pc"))
entry_cpu = gdb.selected_thread().num - 1  # (gdb's thread n is QEMU's CPU n - 1)
gdb.execute("monitor log exec,nochain", to_string=True)
bp.ignore_count = int(os.environ.get("INSNS_OPS", "2"))
gdb.execute("continue")
gdb.execute("monitor log none", to_string=True)

# Each pc's function, as gdb names it (QEMU's own names leave out the assembly labels).
names = {}


def function_of(pc):
    if pc not in names:
        sym = gdb.execute("info symbol 0x%x" % pc, to_string=True).split()
        names[pc] = sym[0] if sym and sym[0] != "No" else "user"
    return names[pc]


# "Trace CPU: 0xHOST [CS_BASE/PC/FLAGS/CFLAGS] SYMBOL": one line a block, one block an
# instruction. Another CPU's instructions are named "cpuK:function"; only the entry's CPU
# reaching the entry starts an operation.
ops = collections.Counter()
shape = {}
counts = None
with open(log) as f:
    for line in f:
        if not line.startswith("Trace "):
            continue
        words = line.split()
        cpu = int(words[1].rstrip(":"))
        pc = int(words[3].strip("[]").split("/")[1], 16)
        fn = function_of(pc)
        if cpu != entry_cpu:
            fn = "cpu%d:%s" % (cpu, fn)
        elif pc == start:
            if counts:
                key = tuple(counts.items())
                ops[key] += 1
            counts = collections.OrderedDict()
        if counts is not None:
            counts[fn] = counts.get(fn, 0) + 1
gdb.execute("kill")
for key, seen in ops.most_common():
    print("INSNS op total %d seen %d" % (sum(c for _, c in key), seen))
    for fn, c in key:
        print("INSNS   %-36s %d" % (fn, c))
