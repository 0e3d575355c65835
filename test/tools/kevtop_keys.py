#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kevtop on a terminal (a pty): it draws the last frame, takes its keys and quits on q.
k sorts the threads by kernel calls (the screen's KCALL/s column must then not increase down
the rows), space pauses (the status line says PAUSED), q exits with status 0. The screen as a
terminal shows it (a small emulator of the sequences kevtop writes: cursor home, clear to the
end of the line and of the screen) after every frame so far is exactly the last frame's text:
no character of an earlier, longer line is left.

usage: kevtop_keys.py KEVTOP FILE.kev     Prints TAP lines "ok N - ..." / "not ok N - ..."."""
import os
import pty
import re
import select
import sys
import time


def terminal(out, rows=40, cols=200):
    """The screen after out: CSI H, K, J, 2J, newline and text; other sequences ignored."""
    scr = [[" "] * cols for _ in range(rows)]
    y = x = 0
    for tok in re.findall(r"\x1b\[[0-9;?]*[A-Za-z]|\n|\r|[^\x1b\n\r]", out):
        if tok == "\n":
            y, x = min(y + 1, rows - 1), 0
        elif tok == "\r":
            x = 0
        elif tok.startswith("\x1b["):
            code = tok[-1]
            if code == "H":
                y = x = 0
            elif code == "K":
                scr[y][x:] = [" "] * (cols - x)
            elif code == "J":
                scr[y][x:] = [" "] * (cols - x)
                for r in range(y + 1 if tok != "\x1b[2J" else 0, rows):
                    scr[r] = [" "] * cols
        elif x < cols:
            scr[y][x] = tok
            x += 1
    return ["".join(r).rstrip() for r in scr]


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
    whole = first + by_k
    want = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", whole.split("\x1b[H")[-1]).split("\n")
    got = terminal(whole)[:len(want)]
    want = [l.rstrip() for l in want]
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    report(not bad, "the screen is the last frame, nothing of a longer line left (%d lines; %s)"
           % (len(want), bad[:2]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
