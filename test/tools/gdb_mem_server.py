# SPDX-License-Identifier: MIT
# A GDB server of the tests' own, written from the remote protocol's documents: the part a
# reader of a halted target's memory uses (qSupported, QStartNoAckMode, ?, ^C, m, c, D). Its
# memory is a dict {address: bytearray}; a read that touches an address no region holds is
# refused (E01), as a probe's server refuses unmapped memory, and every read is logged
# (address, length), so that a test can say what its reader read.
import socket
import threading


class MemServer(threading.Thread):
    def __init__(self, mem, path):
        super().__init__(daemon=True)
        self.mem, self.reads = mem, []
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.bind(path)
        self.where = "unix:" + path
        self.sock.listen(1)

    def held(self, addr, length):
        """Whether [addr, addr + length) lies in one region."""
        return any(base <= addr and addr + length <= base + len(b) for base, b in self.mem.items())

    def read(self, addr, length):
        self.reads.append((addr, length))
        out, got = bytearray(length), 0
        for base, b in self.mem.items():
            lo, hi = max(base, addr), min(base + len(b), addr + length)
            if lo < hi:
                out[lo - addr:hi - addr] = b[lo - base:hi - base]
                got += hi - lo
        return out.hex() if got == length else "E01"

    def reply(self, c, body):
        s = body.encode()
        c.sendall(b"$" + s + b"#%02x" % (sum(s) & 255))

    def packet(self, c, pkt):
        if pkt.startswith("qSupported"):
            self.reply(c, "PacketSize=1000;QStartNoAckMode+")
        elif pkt == "QStartNoAckMode":
            self.reply(c, "OK")
            return True
        elif pkt == "?":
            self.reply(c, "S05")
        elif pkt[0] == "m":
            a, n = (int(x, 16) for x in pkt[1:].split(","))
            self.reply(c, self.read(a, n))
        elif pkt == "D":
            self.reply(c, "OK")
        elif pkt != "c":
            self.reply(c, "")
        return False

    def run(self):
        try:
            c, _ = self.sock.accept()
        except OSError:
            return
        noack, buf = False, b""
        while True:
            d = c.recv(65536)
            if not d:
                return
            buf += d
            while buf:
                if buf[:1] in (b"+", b"-"):
                    buf = buf[1:]
                elif buf[:1] == b"\x03":
                    buf = buf[1:]
                    self.reply(c, "S02")
                elif b"#" in buf and len(buf) >= buf.index(b"#") + 3:
                    i = buf.index(b"#")
                    pkt, buf = buf[1:i].decode(), buf[i + 3:]
                    if not noack:
                        c.sendall(b"+")
                    noack = self.packet(c, pkt) or noack
                else:
                    break

    def close(self):
        self.sock.close()
