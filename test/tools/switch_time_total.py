#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The time each CPU's context switches took, from traceprinter's text of a capture: from
the event in which the running thread left RUNNING (its READY, a blocked state, DEAD) to the
next THRUNNING of another thread on that CPU (0 when the capture shows no such event between
them), in ns at the header's cycles per second. The outside truth for sched:::off-cpu to
sched:::on-cpu in test_dtrace_switch.sh; prints "TOTAL SWITCHES MAX".
usage: switch_time_total.py TRACEPRINTER_TEXT"""
import re
import sys


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(sys.argv) == 2 else 2
    cps = None
    cur = {}        # CPU -> (pid, tid) its last THRUNNING named
    off = {}        # CPU -> cycles when that thread left RUNNING
    last, high = {}, {}
    total = switches = longest = 0
    ev = re.compile(r"^t:0x([0-9a-f]+) CPU:(\d+) THREAD\s*:(TH\w+)\s+pid:(\d+) tid:(\d+)")
    with open(sys.argv[1], errors="replace") as f:
        for line in f:
            m = re.search(r"TRACE_CYCLES_PER_SEC:: *(\d+)", line)
            if m:
                cps = int(m.group(1))
                continue
            m = re.match(r"^t:0x([0-9a-f]+) CPU:(\d+) ", line)
            if m:   # every event's stamp, to carry a wrap of its low word
                lo, cpu = int(m.group(1), 16), int(m.group(2))
                if cpu in last and lo < last[cpu]:
                    high[cpu] = high.get(cpu, 0) + (1 << 32)
                last[cpu] = lo
            m = ev.match(line)
            if not m or cps is None:
                continue
            cpu, state = int(m.group(2)), m.group(3)
            t = high.get(cpu, 0) + int(m.group(1), 16)
            who = (int(m.group(4)), int(m.group(5)))
            if state == "THRUNNING":
                if cpu in cur and cur[cpu] != who:
                    t0 = off.get(cpu, t)
                    d = t * 10**9 // cps - t0 * 10**9 // cps
                    total += d
                    longest = max(longest, d)
                    switches += 1
                off.pop(cpu, None)  # it runs: no switch pending (it may be the same thread)
                cur[cpu] = who
            elif state not in ("THCREATE", "THDESTROY") and cur.get(cpu) == who and cpu not in off:
                off[cpu] = t
    if cps is None:
        print("switch_time_total.py: no TRACE_CYCLES_PER_SEC in the header: is this "
              "traceprinter's output?", file=sys.stderr)
        return 1
    print(total, switches, longest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
