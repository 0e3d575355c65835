#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A stand-in for a debug probe's GDB server reading a running target in the background (as
# OpenOCD serves m and M to a running Cortex-M through its memory access port, or pyOCD in
# non-stop mode): GDB's remote protocol on a UNIX socket, memory packets served from the file
# QEMU backs the guest's RAM with (QEMU_SHARED_RAM) while the VM runs. It never stops the VM:
# it has no way to. Every request to halt or step (^C, c, C, s, S, vCont) is refused ("E01",
# nothing for ^C) and counted; at the end (the client's D or its hang-up) it writes
# "halts N", "reads N", "writes N" to STATS. RATE (bytes a second): memory reads served no
# faster, as a slow probe's SWD link serves them (a CMSIS-DAP or an ST-LINK: 107-174 KB/s,
# docs/probe-path.md); unset, as fast as the file.
#   test/tools/gdb_shared_ram.py SOCKET RAM_FILE BASE STATS [RATE]
import mmap
import os
import socket
import sys
import time

if len(sys.argv) not in (5, 6) or sys.argv[1] in ("-h", "--help"):
    print("usage: gdb_shared_ram.py SOCKET RAM_FILE BASE STATS [RATE]\n"
          "Serves GDB's m and M packets on the UNIX socket SOCKET from RAM_FILE (a guest's RAM "
          "shared by QEMU, its first byte at guest address BASE) while the guest runs; refuses "
          "and counts every halt or step; writes the counts to STATS at the end. RATE: serve "
          "reads at that many bytes a second at most (a slow probe).")
    sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help") else 2)
path, ram, base, stats = sys.argv[1], sys.argv[2], int(sys.argv[3], 0), sys.argv[4]
rate = int(sys.argv[5]) if len(sys.argv) == 6 else 0
halts = reads = writes = 0
served_until = 0.0      # when the link is free again (RATE)


def memory():
    """The RAM file, waited for (QEMU makes it as it starts) up to a minute."""
    for _ in range(600):
        if os.path.exists(ram) and os.path.getsize(ram) > 0:
            break
        time.sleep(0.1)
    f = open(ram, "r+b")
    return mmap.mmap(f.fileno(), 0)


def reply(c, body):
    s = body.encode()
    c.sendall(b"$" + s + b"#%02x" % (sum(s) & 255))


def packet(c, m, pkt):
    """One packet; False when the client detached."""
    global halts, reads, writes, served_until
    if pkt.startswith("qSupported"):
        reply(c, "PacketSize=1000;QStartNoAckMode+")
    elif pkt == "QStartNoAckMode":
        reply(c, "OK")
    elif pkt == "?":
        reply(c, "S05")     # (the stop reply a client waits for: the target is not stopped)
    elif pkt[0] in "mM":
        spec = pkt[1:].split(":")[0]
        a, n = (int(x, 16) for x in spec.split(","))
        if a < base or a + n > base + len(m):
            reply(c, "E01")
        elif pkt[0] == "m":
            reads += 1
            data = m[a - base:a - base + n].hex()
            if rate:
                now = time.monotonic()
                served_until = max(served_until, now) + n / rate
                time.sleep(max(0.0, served_until - now))
            reply(c, data)
        else:
            writes += 1
            m[a - base:a - base + n] = bytes.fromhex(pkt.split(":")[1])
            reply(c, "OK")
    elif pkt in ("c", "s") or pkt[0] in "CS" or pkt.startswith("vCont;"):
        halts += 1
        reply(c, "E01")
    elif pkt == "D":
        reply(c, "OK")
        return False
    else:
        reply(c, "")
    return True


def serve(c, m):
    global halts
    noack, buf = False, b""
    while True:
        d = c.recv(65536)
        if not d:
            return
        buf += d
        while buf:
            if buf[:1] in (b"+", b"-"):
                buf = buf[1:]
                continue
            if buf[:1] == b"\x03":
                buf = buf[1:]
                halts += 1
                continue
            if b"#" not in buf or len(buf) < buf.index(b"#") + 3:
                break
            i = buf.index(b"#")
            pkt, buf = buf[1:i].decode(), buf[i + 3:]
            if not noack:
                c.sendall(b"+")
            noack = noack or pkt == "QStartNoAckMode"
            if not packet(c, m, pkt):
                return


s = socket.socket(socket.AF_UNIX)
s.bind(path)
s.listen(1)
c, _ = s.accept()
try:
    serve(c, memory())
finally:
    with open(stats + ".tmp", "w") as o:
        o.write("halts %d\nreads %d\nwrites %d\n" % (halts, reads, writes))
    os.rename(stats + ".tmp", stats)
