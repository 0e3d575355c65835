#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kevtop on a terminal (a pty): it draws the last frame, takes its keys and quits on q.
k sorts the threads by kernel calls (the screen's KCALL/s column must then not increase down
the rows), space pauses (the status line says PAUSED), q exits with status 0.

usage: kevtop_keys.py KEVTOP FILE.kev     Prints TAP lines "ok N - ..." / "not ok N - ..."."""
import os
import pty
import re
import select
import sys
import time


def main(argv):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["LINES"] = "40"
        os.execv(argv[1], [argv[1], "-d", "0.5", argv[2]])
    def screen(sec):
        out, end = b"", time.time() + sec
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
        return out.decode(errors="replace")
    first = screen(2.0)
    os.write(fd, b"k")
    by_k = screen(1.0)
    os.write(fd, b" ")
    paused = screen(1.0)
    os.write(fd, b"q")
    screen(1.0)
    _, status = os.waitpid(pid, 0)
    last = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", by_k.split("\x1b[H")[-1])
    kcalls = [float(m.group(1)) for m in
              re.finditer(r"^\s*\d+\s+\d+\s.*?ms\s+(\d+)\s+\d+\s+\d+", last, re.M)]
    n = [0]
    def report(ok, what):
        n[0] += 1
        print("%s %d - %s" % ("ok" if ok else "not ok", n[0], what))
    report("kevtop: " in first and "the trace ended" in first,
           "on a terminal: the last frame drawn, the trace's end said")
    report("sort kcalls" in last and len(kcalls) > 1 and kcalls == sorted(kcalls, reverse=True),
           "k: the threads sorted by kernel calls a second (%s)" % kcalls[:6])
    report("PAUSED" in paused, "space: paused")
    report(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, "q: quits, exit 0")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
