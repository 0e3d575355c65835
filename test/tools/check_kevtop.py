#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kevtop -b's frames against kevstat over the finished file: each thread's CPU time summed over
the frames (the "12.345ms" beside its %) is kevstat's CPU time for it, to 1%; the frames follow
one another without a gap or an overlap, each SPAN seconds of trace time but the last; losses
summed are kevstat's lost events.

usage: check_kevtop.py KEVTOP_B_OUTPUT KEVSTAT_JSON SPAN [FRAMES]
Prints TAP lines "ok N - ..." / "not ok N - ..." (tap.sh relay numbers them again)."""
import json
import re
import sys

HEAD = re.compile(r"^kevtop: (\d+\.\d+)-(\d+\.\d+) s of trace time \((\d+\.\d+) s\)")
LOSS = re.compile(r"^loss: (\d+) events in this interval.*, (\d+) in all")
# PID TID NAME STATE PRI CPU% CPU ...; a NAME may hold spaces (a CPU's idle thread: "idle (CPU 3)")
ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+.+?\s+\S+\s+\S+\s+([\d.]+)%\s+([\d.]+)ms\s")


N = [0]


def report(ok, what, detail=""):
    N[0] += 1
    print("%s %d - %s" % ("ok" if ok else "not ok", N[0], what))
    if not ok and detail:
        print("# " + detail)


def main(argv):
    text = open(argv[1]).read().splitlines()
    stat = json.load(open(argv[2]))
    span = float(argv[3])
    want_frames = int(argv[4]) if len(argv) > 4 else None
    cps = stat["trace"]["cycles_per_sec"]
    frames, cpu, lost, prev_t1, gaps, short = [], {}, 0, None, 0, 0
    for line in text:
        m = HEAD.match(line)
        if m:
            t0, t1, d = float(m.group(1)), float(m.group(2)), float(m.group(3))
            frames.append((t0, t1, d))
            if prev_t1 is not None and abs(t0 - prev_t1) > 1e-6:
                gaps += 1
            prev_t1 = t1
            continue
        m = LOSS.match(line)
        if m:
            lost += int(m.group(1))
            last_total = int(m.group(2))
            continue
        m = ROW.match(line)
        if m:
            key = (int(m.group(1)), int(m.group(2)))
            cpu[key] = cpu.get(key, 0.0) + float(m.group(4))
    short = sum(1 for f in frames[:-1] if abs(f[2] - span) > 0.0015)
    report(len(frames) > 0, "kevtop printed frames (%d)" % len(frames))
    if want_frames is not None:
        report(len(frames) == want_frames, "-n %d: %d frames" % (want_frames, len(frames)))
        return 0
    report(gaps == 0, "each frame starts where the last ended", "%d gaps" % gaps)
    report(short == 0, "every frame but the last spans %.3f s of trace time" % span,
           "%d frames of another span" % short)
    bad, n, total = [], 0, 0.0
    for t in stat["threads"]:
        want = t["cpu_cycles"] * 1e3 / cps
        got = cpu.pop((t["pid"], t["tid"]), 0.0)
        if not want and not got:
            continue
        n += 1
        total += want
        # to 1% of the thread's time, or the frames' rounding (0.5 us each)
        if abs(got - want) > max(0.01 * want, 0.0005 * len(frames) + 1e-9):
            bad.append("%s: kevstat %.3f ms, kevtop's frames %.3f ms" % (t["name"], want, got))
    for k, v in cpu.items():
        if v > 0:
            bad.append("thread %s in kevtop (%.3f ms) but not in kevstat" % (k, v))
    report(n > 0 and not bad, "the frames' CPU time of each of %d threads (%.3f ms in all) is "
           "kevstat's, to 1%%" % (n, total), "; ".join(bad[:5]))
    want_lost = stat["trace"]["lost"]
    report(lost == want_lost and (not frames or last_total == want_lost),
           "the frames' losses add up to kevstat's (%d events)" % want_lost,
           "kevtop %d (last frame's total %d)" % (lost, last_total if frames else -1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
