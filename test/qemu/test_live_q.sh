#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make live ends on one q (scripts/run-live.sh on a pseudo-terminal, as a user runs it, with
# kevtop on the terminal, kevlive and kevweb): once kevtop says the trace ended, one q ends
# kevtop, the page's hold and the script within 10 s, which says so, exit 0 (the demo for 3 s).
#   BOARD=<board> test/qemu/test_live_q.sh BUILD_DIR HOST_DIR
set -u
b=$1
h=$2
out=$b/test-live-q
rm -rf "$out" && mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap_lib.sh"
python3 - "$here/../../scripts/run-live.sh" "$b/demo.elf" "$h" "$out" >"$out/q.txt" 2>&1 <<'PY'
import os, pty, re, select, sys, time
script, img, h, out = sys.argv[1:5]
pid, fd = pty.fork()
if pid == 0:
    os.environ.update(LIVE_SECONDS="3", LIVE_DIR=out, TRACE_FILE=out + "/trace.kev", LIVE_PORT="0",
                      LIVE_WEB_PORT="0", LINES="40")
    os.execv("/bin/bash", ["bash", script, img, h + "/kevtop", h + "/kevlive", h + "/kevweb"])
got, t0, sent, status = b"", time.time(), None, None
while time.time() - t0 < 100 and status is None:
    r, _, _ = select.select([fd], [], [], 0.1)
    if r:
        try:
            got += os.read(fd, 65536)
        except OSError:
            pass
    if sent is None and b"the trace ended: q to quit" in got:
        time.sleep(0.5)
        os.write(fd, b"q")
        sent = time.time()
    if sent and time.time() - sent > 10:
        break
    p, st = os.waitpid(pid, os.WNOHANG)
    if p:
        status = st
took = time.time() - sent if sent else -1
if status is None:
    os.kill(pid, 9)
txt = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", got.decode(errors="replace"))
open(out + "/pty.txt", "w").write(txt)     # (kevtop's terminal, its sentences included)
print("sent %s, took %.1f s, status %s" % (sent is not None, took, status))
print("\n".join(l for l in txt.splitlines() if l.startswith("live:")))
sys.exit(0 if status is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
         and "q in kevtop ended the web view too" in txt and "q or Ctrl-C quits" not in txt else 1)
PY
rc=$?
check "one q after kevtop's end ends make live ($(head -1 "$out/q.txt"))" "[ $rc = 0 ]"
# The live tools refuse a heartbeat that lies ("not believed"): the reader's own never is.
check "no live tool refused the reader's heartbeat as a lie (kevtop's terminal, kevlive's, kevweb's and kevprobe's logs)" \
    "[ -s $out/pty.txt ] && ! grep -q 'not believed' $out/pty.txt $out/*.log"
echo "1..$n"
[ $rc = 0 ] && ! grep -q 'not believed' $out/pty.txt $out/*.log
