#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# QEMU's QMP socket driven a step at a time: connects (retrying up to 30 s: with
# -qmp unix:PATH,server=on,wait=on QEMU waits for this client before the guest starts, so no
# console line is missed), turns on QMP's commands, then runs each STEP in order:
#   NAME         a QMP command without arguments (system_reset, stop, cont, quit): its answer
#                printed as "ok NAME" or "error NAME: why"
#   wait:REGEX   wait until LOG (--log) holds a line matching REGEX (Python's re), up to
#                --timeout seconds (default 60): "seen REGEX", or "timeout REGEX" and exit 1
# Exit status 0 when every step succeeded, 1 otherwise, 2 on usage.
#   test/tools/qmp_command.py SOCKET [--log FILE] [--timeout SECONDS] STEP...
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qmp_session import qmp_open  # noqa: E402

args = sys.argv[1:]
if not args or args[0] in ("-h", "--help"):
    print("usage: qmp_command.py SOCKET [--log FILE] [--timeout SECONDS] STEP...\n"
          "Runs each step on QEMU's QMP socket: a command (system_reset, stop, cont, quit) or\n"
          "wait:REGEX (until the console log FILE holds a matching line).")
    sys.exit(0 if args else 2)
path, args = args[0], args[1:]
log, timeout = None, 60.0
while args[:1] in (["--log"], ["--timeout"]) and len(args) > 1:
    if args[0] == "--log":
        log = args[1]
    else:
        timeout = float(args[1])
    args = args[2:]
if not args or (log is None and any(a.startswith("wait:") for a in args)):
    print("qmp_command.py: no step given, or a wait: without --log", file=sys.stderr)
    sys.exit(2)
f = qmp_open(path, 30)
if f is None:
    print("qmp_command.py: cannot connect to %s" % path, file=sys.stderr)
    sys.exit(1)


def answer():
    for line in f:
        m = json.loads(line)
        if "return" in m or "error" in m:
            return m
    return {"error": {"desc": "QEMU closed the socket"}}


def seen(regex):
    pat = re.compile(regex)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with open(log, errors="replace") as lf:
                if any(pat.search(line) for line in lf):
                    return True
        except OSError:
            pass
        time.sleep(0.05)
    return False


answer()                                        # (the answer to qmp_capabilities)
failed = 0
for step in args:
    if step.startswith("wait:"):
        ok = seen(step[5:])
        print("%s %s" % ("seen" if ok else "timeout", step[5:]))
        if not ok:
            failed = 1
            break
        continue
    f.write(json.dumps({"execute": step}).encode() + b"\n")
    f.flush()
    m = answer()
    if "error" in m and not (step == "quit" and "closed" in m["error"].get("desc", "")):
        print("error %s: %s" % (step, m["error"].get("desc", m["error"])))
        failed = 1
        break
    print("ok %s" % step)
sys.exit(failed)
