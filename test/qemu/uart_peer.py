#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The peer on the far end of a program's UART (test/qemu/test_uart_node.sh): listens on
127.0.0.1 (a free port, written to PORTFILE), takes QEMU's connection (QEMU_EXTRA's
-chardev socket ... -serial), and talks to user/apps/uartnode's command server a line at a time:
PINGs, ECHOs of known texts, a STAT, QUIT; every reply checked against what it sent. Counts its
own bytes each way and prints them on its last line:
  peer: N bytes out, M bytes in, K commands, K replies as expected, STAT J X
exit 0 when every reply was as expected, 1 otherwise.
Usage: uart_peer.py PORTFILE"""
import socket
import sys

if sys.argv[1:2] in (["-h"], ["--help"]) or len(sys.argv) != 2:
    print(__doc__)
    sys.exit(0 if sys.argv[1:2] in (["-h"], ["--help"]) else 2)

srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
srv.settimeout(120)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write("%d\n" % srv.getsockname()[1])
import os
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
conn, _ = srv.accept()
conn.settimeout(60)
out = inb = good = 0
pending = b""


def reply():
    """The next line the node sends, without its line break."""
    global pending, inb
    while b"\n" not in pending:
        data = conn.recv(256)
        if not data:
            raise EOFError("the node closed the line")
        inb += len(data)
        pending += data
    line, pending = pending.split(b"\n", 1)
    return line.decode(errors="replace")


def ask(cmd, want):
    """Sends cmd; true when the reply is want (or, with want None, any STAT)."""
    global out
    data = (cmd + "\n").encode()
    conn.sendall(data)
    out += len(data)
    got = reply()
    if (want is None and got.startswith("STAT ")) or got == want:
        return got
    print("peer: %r answered %r, not %r" % (cmd, got, want))
    return None


cmds = [("PING %d" % i, "PONG %d" % i) for i in range(1, 21)]
cmds += [("ECHO " + t, t) for t in ("telemetry", "a b c", "0123456789" * 4, "x", "end")]
cmds += [("STAT", None), ("QUIT", "BYE")]
stat = "?"
try:
    for cmd, want in cmds:
        got = ask(cmd, want)
        if got is not None:
            good += 1
            if cmd == "STAT":
                stat = got[5:]
except (EOFError, socket.timeout) as e:
    print("peer: %s after %d of %d commands" % (e, good, len(cmds)))
print("peer: %d bytes out, %d bytes in, %d commands, %d replies as expected, STAT %s"
      % (out, inb, len(cmds), good, stat))
sys.exit(0 if good == len(cmds) else 1)
