# SPDX-License-Identifier: MIT
# A QMP session with QEMU (imported by qmp_events.py and qmp_command.py): the socket connected,
# retrying until `wait` seconds have passed (QEMU may not listen yet), its greeting read and
# QMP's commands turned on. Returns the socket's file (binary, read and write), or None.
import socket
import time


def qmp_open(path, wait):
    s = socket.socket(socket.AF_UNIX)
    t0 = time.monotonic()
    while True:
        try:
            s.connect(path)
            break
        except OSError:
            if time.monotonic() - t0 > wait:
                return None
            time.sleep(0.05)
    f = s.makefile("rwb")
    f.readline()                                    # the greeting
    f.write(b'{"execute": "qmp_capabilities"}\n')
    f.flush()
    return f
