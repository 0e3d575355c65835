#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# kevprobe against a GDB server written here from the remote protocol's documents (TAP): the
# memory of a target whose kernel published a probe block (trace/kev_probe.h) over the buffers
# of a kevgen capture (the real ring and writer). The truths: kevgen's file (the reader must
# write it byte for byte: header, buffers, trailer), the block's layout as the header draws it,
# and the sentence each damaged input must be refused with: a block that fails its check, a
# state the kernel never writes (the block's, a buffer's), a buffer that is not what the table
# says, a block of another version, a block read at the wrong address or copied, a server that
# hangs up, no server at all (said after -w's wait); the server on a UNIX socket (QEMU's -gdb
# unix:PATH); the halting reader stopped by SIGINT or SIGTERM in the middle of a round (the
# target halted, a read pending): the server's own record says it let the target run (`c`)
# and halted it no more before the connection closed. A debug probe's GDB server (OpenOCD,
# pyOCD, probe-rs, J-Link) speaks the same.
#   test/tools/test_kevprobe.py HOST_DIR
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_block import CHECK, ENTRY, FMT, LAYOUT, VERSION, fnv, kevgen, table_entry  # noqa: E402

H = sys.argv[1] if len(sys.argv) > 1 else "build/host"
BLOCK, TABLE, CPUS, NEXT, HEAD, MEM = 0x20001000, 0x20002000, 0x20003000, 0x20004000, 0x20005000, 0x20100000
ACKS = 0x20006000
n = 0


def ok(cond, what):
    global n
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
    sys.stdout.flush()


def capture():
    """kevgen's file cut into the header, the system page, the buffers and the trailer."""
    data, end, page_len, bufs = kevgen(H, 3000)
    return data, data[:end], data[end:end + page_len], bufs


def target(head, page, bufs, **kw):
    """The memory of a stopped capture: every buffer FULL, the block published last."""
    mem = {}
    ring = bytearray(16384 * len(bufs))
    table = bytearray(ENTRY * len(bufs))
    for i, b in enumerate(bufs):
        ring[16384 * i:16384 * i + len(b)] = b
        seq = struct.unpack_from("<I", b, 8)[0]
        table[ENTRY * i:ENTRY * (i + 1)] = table_entry(seq, kw.get("state", 2) if i == 1 else 2,
                                                       len(b) // 16)
    if "bad_slot" in kw:
        struct.pack_into("<I", ring, 16384 * 2 + 8, 999)
    if "huge_count" in kw:      # buffer 2's BUFFER_END says 2^32-1 events
        struct.pack_into("<I", ring, 16384 * 2 + len(bufs[2]) - 4, 0xffffffff)
    fields = [b"KEV PROBE BLOCK\0", kw.get("version", VERSION), 168, BLOCK, MEM, TABLE, CPUS,
              NEXT, HEAD, HEAD + len(head), ACKS, len(head), len(page), len(bufs), 16384, 1, 0,
              *LAYOUT, 1, 0, kw.get("bstate", 3), 0, 0, 0, 0, 0x12345678, 0]
    blk = bytearray(struct.pack(FMT, *fields))
    if kw.get("self"):
        struct.pack_into("<Q", blk, 24, kw["self"])
    struct.pack_into("<I", blk, CHECK, fnv(blk))
    if kw.get("flip"):
        blk[98] ^= 1        # pb_nbufs, after the check was computed
    mem[BLOCK] = blk
    mem[TABLE] = table
    mem[CPUS] = bytearray(64)
    mem[NEXT] = bytearray(struct.pack("<I", kw.get("next", len(bufs))))
    mem[HEAD] = bytearray(head + page)
    mem[ACKS] = bytearray(4 * len(bufs))
    mem[MEM] = ring
    return mem


class Server(threading.Thread):
    """GDB's remote serial protocol, the part a reader of memory uses."""

    def __init__(self, mem, hang_after=None, path=None, slow_after=None):
        super().__init__(daemon=True)
        self.mem, self.hang_after, self.reads = mem, hang_after, 0
        # slow_after: reads past it, made while the target is halted, take half a second each
        # (a round held long enough for a signal to land in it; `slowing` says one is under way)
        self.slow_after, self.slowing = slow_after, threading.Event()
        self.halted = True          # (a server halts the target as a client connects: QEMU's)
        self.halted_at_close = None
        self.halts, self.writes_outside = [], 0     # what a running target's server refuses
        if path:    # a UNIX socket, as QEMU's -gdb unix:PATH,server=on,wait=off
            self.sock = socket.socket(socket.AF_UNIX)
            self.sock.bind(path)
            self.where = "unix:" + path
        else:
            self.sock = socket.socket()
            self.sock.bind(("127.0.0.1", 0))
            self.where = "127.0.0.1:%d" % self.sock.getsockname()[1]
        self.sock.listen(1)

    def find(self, addr, length):
        for base, b in self.mem.items():
            if base <= addr and addr + length <= base + len(b):
                return b, addr - base
        return None, 0

    def read(self, addr, length):
        """RAM is 0x20000000..0x20200000 (zero where nothing was put), nothing outside."""
        if addr < 0x20000000 or addr + length > 0x20200000:
            return "E01"
        out = bytearray(length)
        for base, b in self.mem.items():
            lo, hi = max(base, addr), min(base + len(b), addr + length)
            if lo < hi:
                out[lo - addr:hi - addr] = b[lo - base:hi - base]
        return out.hex()

    def reply(self, c, body):
        s = body.encode() if isinstance(body, str) else body
        c.sendall(b"$" + s + b"#%02x" % (sum(s) & 255))

    def run(self):
        c, _ = self.sock.accept()
        noack, buf = False, b""
        while True:
            d = c.recv(65536)
            if not d:
                self.halted_at_close = self.halted
                return
            buf += d
            while buf:
                if buf[:1] in (b"+", b"-"):
                    buf = buf[1:]
                    continue
                if buf[:1] == b"\x03":
                    buf = buf[1:]
                    self.halts.append("^C")
                    self.halted = True
                    self.reply(c, "S02")
                    continue
                if b"#" not in buf or len(buf) < buf.index(b"#") + 3:
                    break
                i = buf.index(b"#")
                pkt, buf = buf[1:i].decode(), buf[i + 3:]
                if not noack:
                    c.sendall(b"+")
                if pkt.startswith("qSupported"):
                    self.reply(c, "PacketSize=1000;QStartNoAckMode+")
                elif pkt == "QStartNoAckMode":
                    self.reply(c, "OK")
                    noack = True
                elif pkt == "?":
                    self.reply(c, "S05")
                elif pkt[0] == "m":
                    a, l = (int(x, 16) for x in pkt[1:].split(","))
                    self.reads += 1
                    if self.hang_after is not None and self.reads > self.hang_after:
                        c.close()
                        return
                    if self.slow_after is not None and self.reads > self.slow_after and self.halted:
                        self.slowing.set()
                        time.sleep(0.5)
                    try:
                        self.reply(c, self.read(a, l))
                    except OSError:
                        pass        # (the client left meanwhile: recv says so next)
                elif pkt[0] == "M":
                    spec, data = pkt[1:].split(":")
                    a, l = (int(x, 16) for x in spec.split(","))
                    b, o = self.find(a, l)
                    if b is not self.mem.get(ACKS) and a not in (BLOCK + 136, BLOCK + 144):
                        self.writes_outside += 1    # only the host's words are the host's
                    if b is None:
                        self.reply(c, "E01")
                    else:
                        b[o:o + l] = bytes.fromhex(data)
                        self.reply(c, "OK")
                elif pkt == "c":
                    self.halts.append("c")
                    self.halted = False     # runs until the next \x03
                elif pkt == "D":
                    self.reply(c, "OK")
                    c.close()
                    return
                else:
                    self.reply(c, "")   # not supported (Qqemu.PhyMemMode on a probe's server)


def probe(mem, args=None, hang_after=None, path=None):
    s = Server(mem, hang_after, path)
    s.start()
    out = tempfile.mktemp(suffix=".kev")
    r = subprocess.run([os.path.join(H, "kevprobe"), "-q", "-w", "2", "-i", "1"] +
                       (args or ["-a", hex(BLOCK)]) + ["-o", out, s.where],
                       capture_output=True, text=True, timeout=30)
    s.join(5)
    data = open(out, "rb").read() if os.path.exists(out) else b""
    return r.returncode, r.stderr.strip(), data, s


print("1..19")
whole, head, page, bufs = capture()
mem = target(head, page, bufs)
rc, err, data, s = probe(mem)
ok(rc == 0 and data == whole, "a stopped capture's buffers are written as kevgen's file, byte for "
   "byte (%d buffers, exit %d%s)" % (len(bufs), rc, ", " + err if err else ""))
states = [mem[TABLE][ENTRY * i + 4] for i in range(len(bufs))]
acks = list(struct.unpack_from("<%dI" % len(bufs), mem[ACKS]))
seqs = [struct.unpack_from("<I", mem[TABLE], ENTRY * i)[0] for i in range(len(bufs))]
done = struct.unpack_from("<I", mem[BLOCK], 144)[0]
ok(acks == [q + 1 for q in seqs] and states == [2] * len(bufs) and done == 1 and
   s.halts == [] and s.writes_outside == 0,
   "each buffer was given back through the host's words (sequence + 1), no state written, the "
   "capture marked read, no halt asked (acks %s, host_done %d, halts %s)" % (acks, done, s.halts))
rc, err, data, s = probe(target(head, page, bufs), ["-H", "-a", hex(BLOCK)])
# (the server halts the target as the client connects, as QEMU's does: a c first)
ok(rc == 0 and data == whole and s.halts[:1] == ["c"] and
   s.halts[1:] == ["^C", "c"] * s.halts.count("^C"), "-H, the halting reader: the same file, "
   "every halt followed by a continue, the target left running (%s)" % " ".join(s.halts))
rc, err, data, s = probe(target(head, page, bufs, bad_slot=1))
ok(rc == 0 and "does not start with its BUFFER and end with its BUFFER_END" in err and
   data != whole and len(data) > len(head), "a buffer that is not what its table says is skipped, "
   "counted lost and said, never written (exit %d: %s)" % (rc, err.splitlines()[0] if err else ""))
rc, err, data, s = probe(target(head, page, bufs, huge_count=1))
huge = tempfile.mktemp(suffix=".kev")
open(huge, "wb").write(data)
st = subprocess.run([os.path.join(H, "kevstat"), huge], capture_output=True)
ok(rc == 0 and "says it holds 4294967295 events" in err and data != whole and
   st.returncode == 0 and b"DAMAGED" not in st.stdout + st.stderr,
   "a buffer whose BUFFER_END claims 2^32-1 events: skipped, its slots counted lost and said; "
   "kevstat reads the file undamaged (exit %d, kevstat %d)" % (rc, st.returncode))
rc, err, data, s = probe(target(head, page, bufs, next=len(bufs) - 1))
ok(rc == 0 and data == whole and "behind its own table" in err,
   "a next sequence behind the table's: every buffer read all the same, said (exit %d: %s)" %
   (rc, err.splitlines()[0] if err else "nothing said"))
rc, err, data, s = probe(target(head, page, bufs), ["-t", "-a", hex(BLOCK)])
f = tempfile.mktemp(suffix=".stream")
open(f, "wb").write(data)
kc = subprocess.run([os.path.join(H, "kevcapture"), "-q", "-o", f + ".kev", f], capture_output=True)
ok(rc == 0 and data[:2] == b"KS" and kc.returncode == 0 and open(f + ".kev", "rb").read() == whole,
   "-t: the framed stream, which kevcapture turns into the same file (kevcapture exit %d)" %
   kc.returncode)
rc, err, data, s = probe(target(head, page, bufs), ["-s", "0x20000000:0x8000", "-k",
                                                  "0x20000000:0x8000"])
ok(rc == 0 and data == whole, "found by scanning for its magic: the same file")
sock = os.path.join(tempfile.mkdtemp(), "gdb")
rc, err, data, s = probe(target(head, page, bufs), path=sock)
ok(rc == 0 and data == whole, "the server on a UNIX socket (unix:PATH): the same file (exit %d%s)"
   % (rc, ", " + err if err else ""))

cases = [
    ({"flip": 1}, None, "fails its check"),
    ({"bstate": 9}, None, "state is 9, which the kernel never writes"),
    ({"state": 7}, None, "buffer 1's state is 7, which the kernel never writes"),
    ({"version": 7}, None, "version 7 of 168 bytes"),
    ({}, ["-a", hex(BLOCK + 16)], "no probe block there"),
    ({"self": BLOCK + 0x100}, None, "says it is at 0x%x, not 0x%x" % (BLOCK + 0x100, BLOCK)),
]
for kw, args, want in cases:
    rc, err, data, s = probe(target(head, page, bufs, **kw), args)
    ok(rc == 1 and want in err and data[:1] != b"\0",
       "refused: %s (exit %d: %s)" % (want, rc, err.splitlines()[0] if err else "nothing said"))
rc, err, data, s = probe(target(head, page, bufs), hang_after=5)
ok(rc == 1 and "closed the connection" in err,
   "a server that hangs up mid-capture is said (exit %d: %s)" % (rc, err.splitlines()[0] if err else ""))

# -H stopped by a signal mid-round: the target let run before kevprobe leaves.
for sig in (signal.SIGINT, signal.SIGTERM):
    s = Server(target(head, page, bufs, bstate=2), slow_after=12)     # RUNNING: round after round
    s.start()
    kp = subprocess.Popen([os.path.join(H, "kevprobe"), "-q", "-w", "2", "-i", "1", "-H", "-a",
                           hex(BLOCK), "-o", os.devnull, s.where], stderr=subprocess.PIPE,
                          text=True)
    mid = s.slowing.wait(10)
    kp.send_signal(sig)
    try:
        _, err = kp.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        kp.kill()
        _, err = kp.communicate()
    s.join(5)
    ok(mid and s.halts[-1:] == ["c"] and s.halted_at_close is False and
       "the target let run" in err and kp.returncode == 1,
       "-H stopped by %s in a round's read, the target halted: a c after the last halt, the "
       "target running when the connection closed (server's record: %s; exit %s: %s)" %
       (signal.Signals(sig).name, " ".join(s.halts[-4:]), kp.returncode,
        err.strip().splitlines()[-1] if err.strip() else "nothing said"))

# No server at the port: kevprobe tries for -w's seconds (the server may still be starting),
# then says so.
closed = socket.socket()
closed.bind(("127.0.0.1", 0))
port = closed.getsockname()[1]      # bound, never listening: every connection is refused
t = time.monotonic()
r = subprocess.run([os.path.join(H, "kevprobe"), "-q", "-w", "1", "-a", hex(BLOCK), "-o",
                    os.devnull, "127.0.0.1:%d" % port], capture_output=True, text=True, timeout=30)
took = time.monotonic() - t
closed.close()
ok(r.returncode == 1 and "cannot connect to the GDB server" in r.stderr and 0.9 <= took < 5,
   "no server: said after -w 1's wait (exit %d after %.1f s: %s)" % (r.returncode, took,
                                                                      r.stderr.strip()))
