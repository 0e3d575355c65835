#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# QEMU's own account of a run: connects to its QMP socket (-qmp unix:PATH,server=on,wait=on,
# so QEMU waits for this client before it starts the guest: no event is missed), turns on
# QMP's commands, and counts every event QEMU sends until it exits. Written to OUT as
# "NAME COUNT" lines (STOP: the VM was paused, by a debugger's halt or anything else).
#   test/tools/qmp_events.py PATH OUT [WAIT_SECONDS]
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qmp_session import qmp_open  # noqa: E402

if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
    print("usage: qmp_events.py QMP_SOCKET OUT [WAIT_SECONDS]\n"
          "Counts the events QEMU's QMP socket sends until QEMU exits; writes 'NAME COUNT' "
          "lines to OUT.")
    sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help") else 2)
path, out = sys.argv[1], sys.argv[2]
wait = float(sys.argv[3]) if len(sys.argv) > 3 else 60
f = qmp_open(path, wait)
if f is None:
    open(out, "w").write("NOCONNECT 1\n")
    sys.exit(1)
counts = {}
for line in f:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if "event" in m:
        counts[m["event"]] = counts.get(m["event"], 0) + 1
with open(out + ".tmp", "w") as o:
    o.write("CONNECTED 1\n")
    for k, v in sorted(counts.items()):
        o.write("%s %d\n" % (k, v))
os.rename(out + ".tmp", out)
