#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The context switches of a capture, from traceprinter's text: a switch starts at a
THRUNNING that names another thread than the one the CPU ran (the SNAPSHOT's "cpu runs" or
its last THRUNNING) and ends at that CPU's next ONCPU. Counts those whose leaving thread's
pid is above MINPID (the parity corpus's `demo`), and prints "TOTAL SWITCHES MAX" in ns at the
header's cycles per second: the outside truth for sched:::off-cpu to sched:::on-cpu over the
same capture (test/qemu/parity/switch_time.d), and whether any event's stamp went back on
its CPU ("BACK n" on a second line: the 32-bit stamps' wraps carried).
usage: switch_time_total.py TRACEPRINTER_TEXT [MINPID]"""
import re
import sys


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(sys.argv) == 2 else 2
    minpid = int(sys.argv[2]) if len(sys.argv) == 3 else -1
    cps = None
    cur = {}        # CPU -> who its last THRUNNING (or the snapshot) named
    off = {}        # CPU -> cycles a counted switch started
    last, high = {}, {}
    total = switches = longest = back = 0
    stamp = re.compile(r"^t:0x([0-9a-f]+) CPU:(\d+) ")
    running = re.compile(r"THREAD\s*:THRUNNING\s+pid:(\d+) tid:(\d+)")
    snap = re.compile(r"SYSTEM\s*:SNAPSHOT\s+what:2 \S+ \S+ cpu:(\d+) who:0x([0-9a-f]+)")
    oncpu = re.compile(r"SYSTEM\s*:ONCPU\s+who:0x([0-9a-f]+)")
    with open(sys.argv[1], errors="replace") as f:
        for line in f:
            m = re.search(r"TRACE_CYCLES_PER_SEC:: *(\d+)", line)
            if m:
                cps = int(m.group(1))
                continue
            m = stamp.match(line)
            if not m or cps is None:
                continue
            lo, cpu = int(m.group(1), 16), int(m.group(2))
            if cpu in last and lo < last[cpu]:
                if last[cpu] - lo < (1 << 31):
                    back += 1       # went back (not a wrap of the low word)
                else:
                    high[cpu] = high.get(cpu, 0) + (1 << 32)
            last[cpu] = lo
            t = high.get(cpu, 0) + lo
            m = snap.search(line)
            if m:
                cur[int(m.group(1))] = int(m.group(2), 16)
                continue
            m = running.search(line)
            if m:
                who = int(m.group(1)) << 16 | int(m.group(2))
                old = cur.get(cpu)
                if old is not None and old != who and (old >> 16) > minpid:
                    off[cpu] = t
                cur[cpu] = who
                continue
            if oncpu.search(line) and cpu in off:
                d = t * 10**9 // cps - off.pop(cpu) * 10**9 // cps
                total += d
                longest = max(longest, d)
                switches += 1
    if cps is None:
        print("switch_time_total.py: no TRACE_CYCLES_PER_SEC in the header: is this "
              "traceprinter's output?", file=sys.stderr)
        return 1
    print(total, switches, longest)
    print("BACK", back)
    return 0


if __name__ == "__main__":
    sys.exit(main())
