#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A debugger that lies to the kernel's trace ring (test/qemu/test_ring_lies.sh): through QEMU's
# gdbstub it stops the target every 10 ms of the host's time, as a probe's reader would, until
# a buffer of the ring is FULL, writes 200 into that buffer's CPU byte (the kernel has at most
# 4 CPUs), and goes on stopping it until the ring's refusal count moves (the buffer reused).
# Prints "lied BUF" and "refused N"; exit 0, or 1 after saying why.
#   ring_lies.py SOCKET TABLE NBUFS_ADDR REFUSED_ADDR
import socket
import sys
import time

sock, table, nbufs_at, refused_at = sys.argv[1], *(int(a, 0) for a in sys.argv[2:5])


class Remote:
    def __init__(self, path):
        self.s = None
        for _ in range(100):
            try:
                self.s = socket.socket(socket.AF_UNIX)
                self.s.connect(path)
                break
            except OSError:
                time.sleep(0.1)
        self.s.settimeout(60)
        self.buf = b""
        self.cmd("QStartNoAckMode")
        self.noack = True

    def send(self, body):
        b = body.encode()
        self.s.sendall(b"$" + b + b"#%02x" % (sum(b) & 255))

    def packet(self):
        while True:
            while b"#" not in self.buf or len(self.buf) < self.buf.index(b"#") + 3:
                d = self.s.recv(65536)
                if not d:
                    raise SystemExit("ring_lies: the gdbstub closed the connection")
                self.buf += d
            i = self.buf.index(b"$") if b"$" in self.buf else 0
            j = self.buf.index(b"#", i)
            body, self.buf = self.buf[i + 1:j].decode(), self.buf[j + 3:]
            if not getattr(self, "noack", False):
                self.s.sendall(b"+")
            if not body.startswith("O") or body == "OK":
                return body

    def cmd(self, body):
        self.send(body)
        if not getattr(self, "noack", False):
            while self.s.recv(1) != b"+":
                pass
        return self.packet()

    def read(self, a, n):
        return bytes.fromhex(self.cmd("m%x,%x" % (a, n)))

    def go(self):
        self.send("c")
        r = self.packet()
        if r[0] in "WX":
            raise SystemExit("ring_lies: the target ended (%s) before the lie was told" % r)
        return r


def halt_after(seconds):
    """Let it run for a moment (host time), then stop it: a probe's reader's round."""
    r.send("c")
    time.sleep(seconds)
    r.s.sendall(b"\x03")
    st = r.packet()
    if st[0] in "WX":
        raise SystemExit("ring_lies: the target ended (%s) first" % st)


r = Remote(sock)
r.cmd("Qqemu.PhyMemMode:1")     # physical addresses, as a probe sees them (not the MPU's view)
r.cmd("?")
lied = None
for _ in range(3000):
    halt_after(0.01)
    n = int.from_bytes(r.read(nbufs_at, 4), "little")
    t = r.read(table, 16 * n) if 0 < n <= 64 else b""
    full = [i for i in range(n) if t and t[16 * i + 4] == 2]
    if full:
        lied = full[0]
        assert r.cmd("M%x,1:c8" % (table + 16 * lied + 5)) == "OK"
        break
if lied is None:
    raise SystemExit("ring_lies: no buffer was ever FULL")
print("lied %d" % lied)
sys.stdout.flush()
refused = 0
for _ in range(3000):
    halt_after(0.01)
    refused = int.from_bytes(r.read(refused_at, 4), "little")
    if refused:
        break
print("refused %d" % refused)
sys.stdout.flush()
r.send("D")
