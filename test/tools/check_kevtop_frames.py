#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kevtop --json's frames one by one against kevsql's scheduling slices: each thread's CPU time
in a frame is the time its sched_slice rows (Perfetto's table: ts, dur in ns) spend inside the
frame's interval, to 1% (or 2 us). The sum over a trace cannot tell a frame's time from its
neighbour's; this can.

usage: check_kevtop_frames.py KEVTOP_JSON SLICES_CSV CYCLES_PER_SEC
  SLICES_CSV: kevsql --csv 'SELECT t.pid, t.tid, s.ts, s.dur FROM sched_slice s JOIN thread t
  USING (utid)'
Prints a TAP line "ok 1 - ..." / "not ok 1 - ..."."""
import csv
import json
import sys


def main(argv):
    frames = [json.loads(l) for l in open(argv[1])]
    cps = float(argv[3])
    slices = {}
    for row in csv.DictReader(open(argv[2])):
        if row["pid"] in ("", "NULL"):
            continue
        slices.setdefault((int(row["pid"]), int(row["tid"])), []).append(
            (int(row["ts"]), int(row["ts"]) + int(row["dur"])))
    bad, checked = [], 0
    for f in frames:
        a, b = f["t0_cycles"] * 1e9 / cps, f["t1_cycles"] * 1e9 / cps
        got = {(t["pid"], t["tid"]): t["cpu_cycles"] * 1e9 / cps for t in f["threads"]}
        for key, sl in slices.items():
            want = sum(max(0.0, min(e, b) - max(s, a)) for s, e in sl)
            g = got.get(key, 0.0)
            if want or g:
                checked += 1
            if abs(g - want) > max(0.01 * want, 2000.0):
                bad.append("frame %.6f-%.6f s, thread %s: slices %.0f ns, kevtop %.0f ns"
                           % (f["t0"], f["t1"], key, want, g))
    ok = checked > 0 and not bad
    print("%s 1 - each thread's CPU time in each of %d frames is its slices' time inside the "
          "frame (%d thread-frames)" % ("ok" if ok else "not ok", len(frames), checked))
    for line in bad[:5]:
        print("# " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
