#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints a TCP port on 127.0.0.1 that nothing listens on now (the kernel's pick for port 0),
for a GDB server, a web view or a scheduler a script is about to start."""
import socket
import sys

if sys.argv[1:2] in (["-h"], ["--help"]):
    print(__doc__ + "\nUsage: scripts/free-port.py")
    sys.exit(0)

s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
