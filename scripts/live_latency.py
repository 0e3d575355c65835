#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Event-to-screen latency of a live view, from two time-stamped logs (`stamp` in the bench
scripts: each line "<monotonic seconds> <text>"): livemark's console, where each "livemark:
mark" line is printed as the program starts a burst of CPU, and kevtop --json's frames, the
first frame after a mark in which livemark shows more than 5 ms of CPU being the burst on
screen. Prints BENCH <name>_event_to_screen_median_ms and _max_ms; exit 1 when a mark was
never seen. Usage: live_latency.py NAME CONSOLE FRAMES"""
import json
import sys

if sys.argv[1:2] in (["-h"], ["--help"]):
    print(__doc__)
    sys.exit(0)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    name, console, frames_log = sys.argv[1:]
    marks = [float(l.split(" ", 1)[0]) for l in open(console) if "livemark: mark " in l]
    frames = []
    for line in open(frames_log):
        t, _, js = line.partition(" ")
        f = json.loads(js)
        frames.append((float(t), any(th["name"].startswith("livemark") and th["cpu_ms"] > 5
                                     for th in f["threads"])))
    lat = []
    for m in marks:
        seen = [t for t, ran in frames if ran and t >= m]
        if seen:
            lat.append((seen[0] - m) * 1e3)
    if len(lat) < len(marks) or not marks:
        print("%s: %d marks, %d seen in kevtop's frames" % (name, len(marks), len(lat)),
              file=sys.stderr)
        sys.exit(1)
    lat.sort()
    print("# event to screen, ms: %s" % " ".join("%.0f" % x for x in lat), file=sys.stderr)
    print("BENCH %s_event_to_screen_median_ms %.0f ms" % (name, lat[len(lat) // 2]))
    print("BENCH %s_event_to_screen_max_ms %.0f ms" % (name, lat[-1]))


main()
