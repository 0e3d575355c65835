#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A debugger that lies to the kernel's trace ring (test/qemu/test_ring_lies.sh): through QEMU's
# gdbstub it stops the kernel at each trace tick (a breakpoint on trace_ring_tick) until a
# buffer of the ring is FULL, writes 200 into that buffer's CPU byte (the kernel has at most 4
# CPUs), lets it run, and at the stop of tracing (a breakpoint on trace_ring_stop) reads the
# ring's refusal count. Prints "lied BUF" and "refused N"; exit 0, or 1 after saying why.
#   ring_lies.py SOCKET TABLE NBUFS_ADDR REFUSED_ADDR TICK STOP KIND
import socket
import sys
import time

sock, table, nbufs_at, refused_at, tick, stop, kind = sys.argv[1], *(int(a, 0) for a in sys.argv[2:])


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


r = Remote(sock)
r.cmd("?")
assert r.cmd("Z0,%x,%d" % (tick, kind)) == "OK"
lied = None
for _ in range(100000):
    r.go()
    n = int.from_bytes(r.read(nbufs_at, 4), "little")
    t = r.read(table, 16 * n)
    full = [i for i in range(n) if t[16 * i + 4] == 2]
    if full:
        lied = full[0]
        assert r.cmd("M%x,1:c8" % (table + 16 * lied + 5)) == "OK"
        break
if lied is None:
    raise SystemExit("ring_lies: no buffer was ever FULL")
print("lied %d" % lied)
assert r.cmd("z0,%x,%d" % (tick, kind)) == "OK"
assert r.cmd("Z0,%x,%d" % (stop, kind)) == "OK"
r.go()
print("refused %d" % int.from_bytes(r.read(refused_at, 4), "little"))
sys.stdout.flush()
r.cmd("z0,%x,%d" % (stop, kind))
r.send("D")
