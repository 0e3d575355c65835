#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# What kevprobe believes, against a GDB server of this test's own that lies (TAP). The target's
# memory holds a kevgen capture published as the kernel does (the block and the ring's table
# in the kernel's RAM, the buffers in the pool) and, where a program could write, a forged
# block describing a capture of 13 events of the program's making. The truths: kevgen's file
# (the real capture, byte for byte), the target's memory after the run (what kevprobe wrote:
# nothing outside the kernel's probe words), the host's clock (how long a server that talks
# without answering held kevprobe), and the sentence each refusal must carry. Every mode is also
# held, whatever kevprobe's build (make test runs this over the ASan + UBSan one too), to no
# sanitizer report and an exit of 0 or 1 (no crash), a sentence when it refuses, and its resident
# set (the kernel's count of its peak, wait4) at most RSS_MAX_MB: a server that sends without
# end must not make it hold what it sends.
#   test/tools/test_kevprobe_trust.py HOST_DIR
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_block import CHECK, ENTRY, FMT, LAYOUT, NBUFS, STATE, VERSION, fnv, kevgen, table_entry  # noqa: E402

H = sys.argv[1] if len(sys.argv) > 1 else "build/host"
KRAM, KRAM_LEN = 0x20001000, 0x7000             # the kernel's RAM (the board's map)
BLOCK, TABLE, CPUS, NEXT = 0x20001000, 0x20002000, 0x20003000, 0x20004000
ACKS = 0x20005000                               # the host's acknowledgement words
HEAD, MEM = 0x20010000, 0x20100000              # the logger's memory, the pool
FORGED = 0x20000100                             # a program's RAM, below the kernel's
n = 0
RSS_MAX_MB = 64         # (ASan's shadow and quarantine included: about 20 MB at rest)
modes = []              # (what, exit status, peak RSS in MB, stderr) of each kevprobe run


def ok(cond, what):
    global n
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
    sys.stdout.flush()


def capture(events):
    """A kevgen file cut into its header and system page, its buffers and the whole."""
    data, end, page_len, bufs = kevgen(H, events)
    return data, data[:end + page_len], bufs, end


def block(at, table, cpus, nxt, head, head_len, page_len, mem, nbufs, acks, state=3, gen=1):
    fields = [b"KEV PROBE BLOCK\0", VERSION, 168, at, mem, table, cpus, nxt, head,
              head + head_len, acks, head_len, page_len, nbufs, 16384, 1, 0, *LAYOUT, gen, 0,
              state, 0, 0, 0, 0, 0x12345678, 0]
    b = bytearray(struct.pack(FMT, *fields))
    struct.pack_into("<I", b, CHECK, fnv(b))
    return b


def publish(mem, at, table, cpus, nxt, head, mbase, cap, acks, state=3):
    """A capture's block, table, counts and buffers (every one FULL) into mem."""
    whole, hp, bufs, head_len = cap
    ring = bytearray(16384 * len(bufs))
    tab = bytearray(ENTRY * len(bufs))
    for i, b in enumerate(bufs):
        ring[16384 * i:16384 * i + len(b)] = b
        tab[ENTRY * i:ENTRY * (i + 1)] = table_entry(struct.unpack_from("<I", b, 8)[0], 2,
                                                     len(b) // 16)
    mem[at] = block(at, table, cpus, nxt, head, head_len, len(hp) - head_len, mbase,
                    len(bufs), acks, state)
    mem[acks] = bytearray(4 * len(bufs))
    mem[table] = tab
    mem[cpus] = bytearray(64)
    mem[nxt] = bytearray(struct.pack("<I", len(bufs)))
    mem[head] = bytearray(hp)
    mem[mbase] = ring


class Server(threading.Thread):
    """GDB's remote protocol over mem; `lie` makes it talk without answering after the
    handshake (or before it), `on_read` lets the test change memory between reads."""

    def __init__(self, mem, lie=None, on_read=None):
        super().__init__(daemon=True)
        self.mem, self.lie, self.on_read, self.writes = mem, lie, on_read, []
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.where = "127.0.0.1:%d" % self.sock.getsockname()[1]
        self.sock.listen(1)
        self.stop = False

    def read(self, addr, length):
        if addr < 0x20000000 or addr + length > 0x20200000:
            return "E01"
        out = bytearray(length)
        for base, b in self.mem.items():
            lo, hi = max(base, addr), min(base + len(b), addr + length)
            if lo < hi:
                out[lo - addr:hi - addr] = b[lo - base:hi - base]
        return out.hex()

    def pkt(self, body):
        s = body.encode() if isinstance(body, str) else body
        return b"$" + s + b"#%02x" % (sum(s) & 255)

    def babble(self, c):
        """Talk for ever without answering, as the mode says (until the client leaves)."""
        try:
            while not self.stop:
                if self.lie == "garbage":
                    c.sendall(b"\x7fxyz%&*" * 512)
                elif self.lie == "endless":
                    c.sendall(b"$" + b"41" * 8192 if not hasattr(self, "began") else b"41" * 8192)
                    self.began = 1
                elif self.lie == "console":
                    c.sendall(self.pkt("O" + "68656c6c6f0a"))
                elif self.lie == "drip":
                    c.sendall(b"$" if not hasattr(self, "began") else b"4")
                    self.began = 1
                    time.sleep(0.3)
                    continue
                time.sleep(0.001)
        except OSError:
            pass

    def run(self):
        c, _ = self.sock.accept()
        if self.lie == "silent":        # accepts, never says a word
            time.sleep(20)
            return
        noack, buf = False, b""
        while True:
            try:
                d = c.recv(65536)
            except OSError:
                return
            if not d:
                return
            buf += d
            while buf:
                if buf[:1] in (b"+", b"-"):
                    buf = buf[1:]
                    continue
                if buf[:1] == b"\x03":
                    buf = buf[1:]
                    if self.lie == "console-halt":
                        self.lie = "console"
                        return self.babble(c)
                    c.sendall(self.pkt("S02"))
                    continue
                if b"#" not in buf or len(buf) < buf.index(b"#") + 3:
                    break
                i = buf.index(b"#")
                p, buf = buf[1:i].decode(), buf[i + 3:]
                if not noack:
                    c.sendall(b"+")
                if self.lie in ("garbage", "endless", "drip") and p[0] == "m" or \
                        self.lie == "console" and p == "?":
                    return self.babble(c)
                if self.lie == "console-read" and p[0] == "m":
                    self.lie = "console"
                    return self.babble(c)
                if p.startswith("qSupported"):
                    c.sendall(self.pkt("PacketSize=1000;QStartNoAckMode+"))
                elif p == "QStartNoAckMode":
                    c.sendall(self.pkt("OK"))
                    noack = True
                elif p == "?":
                    c.sendall(self.pkt("S05"))
                elif p[0] == "m":
                    a, n_ = (int(x, 16) for x in p[1:].split(","))
                    if self.on_read:
                        self.on_read(self, a)
                    c.sendall(self.pkt(self.read(a, n_)))
                elif p[0] == "M":
                    spec, data = p[1:].split(":")
                    a, n_ = (int(x, 16) for x in spec.split(","))
                    self.writes.append((a, n_))
                    for base, b in self.mem.items():
                        if base <= a and a + n_ <= base + len(b):
                            b[a - base:a - base + n_] = bytes.fromhex(data)
                            c.sendall(self.pkt("OK"))
                            break
                    else:
                        c.sendall(self.pkt("E01"))
                elif p == "c":
                    pass
                elif p == "D":
                    c.sendall(self.pkt("OK"))
                    c.close()
                    return
                else:
                    c.sendall(self.pkt(""))


def probe(mem, args, lie=None, on_read=None, timeout=30):
    s = Server(mem, lie, on_read)
    s.start()
    out = tempfile.mktemp(suffix=".kev")
    t = time.monotonic()
    errf = tempfile.TemporaryFile()
    p = subprocess.Popen([os.path.join(H, "kevprobe"), "-q", "-w", "2", "-i", "1"] + args +
                         ["-o", out, s.where], stdout=subprocess.DEVNULL, stderr=errf)
    deadline = time.monotonic() + timeout
    while True:         # (wait4: the child's own peak resident set, as the kernel counted it)
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            p.kill()
        time.sleep(0.02)
    took = time.monotonic() - t
    rc = os.waitstatus_to_exitcode(status)
    errf.seek(0)
    err = errf.read().decode(errors="replace").strip()
    modes.append((" ".join(args + ([lie] if isinstance(lie, str) else [])), rc,
                  ru.ru_maxrss / 1024.0, err))
    s.stop = True
    s.join(5)
    data = open(out, "rb").read() if os.path.exists(out) else b""
    return rc, err, data, s, took


def first(err):
    return err.splitlines()[0] if err else "nothing said"


print("1..19")
real = capture(3000)
fake = capture(13)
K = ["-k", "0x%x:0x%x" % (KRAM, KRAM_LEN)]
SCAN = ["-s", "0x20000000:0x10000"] + K


def target(forged=True, real_state=3):
    mem = {}
    publish(mem, BLOCK, TABLE, CPUS, NEXT, HEAD, MEM, real, ACKS, real_state)
    if forged:  # the program's block, found first by a scan from the bottom of RAM
        publish(mem, FORGED, 0x20000400, 0x20000800, 0x20000c00, 0x20040000, 0x20140000, fake,
                0x20000e00)
    return mem


# ---- a block a program planted: never taken ----
mem = target()
before = bytes(mem[FORGED])
rc, err, data, s, _ = probe(mem, SCAN)
ok(rc == 0 and data == real[0], "-s over RAM holding a program's forged block (13 events) "
   "below the kernel's: the real capture, byte for byte (exit %d, %s)" % (rc, first(err)))
ok(all(KRAM <= a < KRAM + KRAM_LEN for a, _ in s.writes) and bytes(mem[FORGED]) == before,
   "kevprobe wrote only inside the kernel's RAM (%d writes), the forged block untouched" %
   len(s.writes))
mem = target()
del mem[BLOCK]      # the kernel has published nothing yet: only the forgery has the magic
rc, err, data, s, _ = probe(mem, SCAN)
ok(rc == 1 and "no probe block in the kernel's RAM" in err and not data and not s.writes,
   "only the forged block there: refused after -w, nothing written (%s)" % first(err))
mem = target(forged=False)
mem[0x20006000] = bytearray(b"KEV PROBE BLOCK\0")   # e.g. a thread's name the kernel keeps
rc, err, data, s, _ = probe(mem, SCAN)
ok(rc == 1 and "2 probe blocks' magic in the kernel's RAM" in err and not s.writes,
   "two candidates in the kernel's RAM: none believed, said (%s)" % first(err))
r = subprocess.run([os.path.join(H, "kevprobe"), "-s", "0x20000000:0x10000", "127.0.0.1:1"],
                   capture_output=True, text=True, timeout=10)
ok(r.returncode == 2 and "kernel's RAM" in r.stderr,
   "-s without the kernel's RAM (-k or -e) is bad usage (exit %d)" % r.returncode)

# A forged block whose table points into the real block (its state byte), named by -a: the
# confused deputy would write the kernel's memory for the program.
mem = target()
struct.pack_into("<Q", mem[FORGED], 40, BLOCK + STATE - 4)  # buffer 0's state: the real pb_state
struct.pack_into("<Q", mem[FORGED], 80, BLOCK + STATE)      # its acknowledgement: the same word
struct.pack_into("<I", mem[FORGED], CHECK, fnv(mem[FORGED]))
real_before = bytes(mem[BLOCK])
rc, err, data, s, _ = probe(mem, ["-a", hex(FORGED)] + K)
ok(rc == 1 and "lies outside the kernel's RAM" in err and not s.writes and
   bytes(mem[BLOCK]) == real_before, "-a on a block outside the kernel's RAM whose table is "
   "the real block: refused, nothing written (%s)" % first(err))
mem = target()
struct.pack_into("<Q", mem[BLOCK], 40, BLOCK + STATE - 4)
struct.pack_into("<I", mem[BLOCK], CHECK, fnv(mem[BLOCK]))
rc, err, data, s, _ = probe(mem, ["-a", hex(BLOCK)] + K)
ok(rc == 1 and "overlaps the probe block itself" in err and not s.writes,
   "a block whose table overlaps the block: refused, nothing written (%s)" % first(err))
mem = target()
struct.pack_into("<Q", mem[BLOCK], 40, 0x20000400)          # the table in a program's RAM
struct.pack_into("<I", mem[BLOCK], CHECK, fnv(mem[BLOCK]))
rc, err, data, s, _ = probe(mem, ["-a", hex(BLOCK)] + K)
ok(rc == 1 and "the buffers' table (0x20000400" in err and not s.writes,
   "a table in a program's RAM: refused, nothing written (%s)" % first(err))


# ---- the description changes within a generation ----
def grow(srv, addr):
    """After the block's second read, the same generation describes another ring (its check
    recomputed, as a writer who knows the format would)."""
    if addr == BLOCK:
        srv.block_reads = getattr(srv, "block_reads", 0) + 1
        if srv.block_reads == 2:
            b = srv.mem[BLOCK]
            struct.pack_into("<I", b, NBUFS, struct.unpack_from("<I", b, NBUFS)[0] - 1)
            struct.pack_into("<I", b, CHECK, fnv(b))


mem = target(forged=False, real_state=2)        # RUNNING: kevprobe reads it again and again
rc, err, data, s, _ = probe(mem, ["-a", hex(BLOCK)] + K, on_read=grow)
ok(rc == 1 and "description changed within capture 1" in err,
   "a description changed within a generation (a valid check): refused (%s)" % first(err))
def stop_later(srv, addr):
    """RUNNING for three rounds, then STOPPED: the words after the description change."""
    if addr == BLOCK:
        srv.block_reads = getattr(srv, "block_reads", 0) + 1
        if srv.block_reads == 3:
            struct.pack_into("<I", srv.mem[BLOCK], STATE, 3)


mem = target(forged=False, real_state=2)
rc, err, data, s, _ = probe(mem, ["-a", hex(BLOCK)] + K, on_read=stop_later)
ok(rc == 0 and data == real[0] and s.block_reads >= 3, "a block whose state moves on and "
   "description stays: the capture, byte for byte (%d reads of the block; %s)" %
   (s.block_reads, first(err)))

# ---- a server that talks without answering: given up within the deadline ----
for lie, want in [("garbage", "bytes outside packets"), ("endless", "packet of more than"),
                  ("console", "console packets"), ("drip", "a packet of")]:
    # (console output answers the handshake's '?': the attach's deadline, -w)
    rc, err, data, s, took = probe(target(), ["-a", hex(BLOCK), "-d", "1500"] + K, lie=lie)
    ok(rc == 1 and want in err and took < 6, "a server sending %s is given up: exit %d after "
       "%.1f s (%s)" % (lie, rc, took, first(err)))
rc, err, data, s, took = probe(target(), ["-a", hex(BLOCK)] + K, lie="silent")
ok(rc == 1 and "no answer" in err and took < 6, "a server that accepts and never answers: "
   "given up after -w 2 (%.1f s: %s)" % (took, first(err)))


def halt_console(srv, addr):
    """The halts after the first round answered with console output for ever."""
    srv.lie = "console-halt"


def read_console(srv, addr):
    """The reads after the first answered with console output for ever."""
    srv.lie = "console-read"


for how, args, lie in [("reads", [], read_console), ("halts (-H)", ["-H"], halt_console)]:
    mem = target(forged=False, real_state=2)
    rc, err, data, s, took = probe(mem, ["-a", hex(BLOCK), "-d", "1500"] + args + K,
                                   on_read=lie)
    # (console output in answer to a read is no memory: refused at once, or for ever given up)
    ok(rc == 1 and took < 8 and ("console packets" in err or "given up" in err or
                                 "memory reply" in err),
       "a server whose later %s never end: given up within the round's deadline (%.1f s: %s)"
       % (how, took, first(err)))

# ---- -w bounds a block that stays idle ----
mem = target(forged=False)
struct.pack_into("<I", mem[BLOCK], STATE, 0)    # pb_state IDLE: the magic, no capture
rc, err, data, s, took = probe(mem, ["-a", hex(BLOCK), "-w", "1"] + K)
ok(rc == 1 and "stayed idle" in err and took < 5,
   "a block that stays idle with its magic: given up after -w 1 (%.1f s: %s)" % (took, first(err)))

# ---- every mode: no crash, memory bounded, a sentence ----
bad = [m for m in modes if m[1] not in (0, 1) or "Sanitizer" in m[3] or "runtime error" in m[3] or
       m[2] > RSS_MAX_MB or (m[1] == 1 and not m[3].startswith("kevprobe: "))]
ok(modes and not bad, "%d lying-server modes: kevprobe exited 0 or 1 in each, no sanitizer report, "
   "a sentence for each refusal, peak resident set %.1f MB at most (bound %d MB)%s" %
   (len(modes), max(m[2] for m in modes), RSS_MAX_MB,
    "; failed: " + "; ".join("%s (exit %d, %.1f MB: %s)" % (m[0], m[1], m[2], first(m[3]))
                             for m in bad[:3]) if bad else ""))
for m in bad[:3]:       # (what it said, for the log)
    print("\n".join("# " + l for l in m[3].splitlines()[:30]))
print("# %d lying-server modes" % len(modes))
