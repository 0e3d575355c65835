#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kevrelay against readers that misbehave, with this script playing QEMU (it connects to the
relay's Unix socket and writes a recorded stream, as QEMU's chardev does) and the readers.
What the relay says is held to what the readers saw (their own byte counts, and their socket's
unread bytes, FIONREAD), never to the relay's own counters:
  - a reader that reads part of the stream, stops, and closes: the relay's "delivered" is what
    that reader's side took (read + still unread in its socket), not what was written to it;
  - a reader that comes after it gets the stream's header frames again first (its bytes start
    with the stream's first frame), and kevcapture over them decodes buffers and says the
    frames it missed;
  - a second reader while one is served is refused (closed at once), said;
  - a reader that never reads does not hold the relay past QEMU's end: it ends within -w
    seconds and a margin, exit 1, said.
usage: relay_hostile.py KEVRELAY KEVCAPTURE STREAM SCRATCHDIR
Prints TAP lines."""
import fcntl
import os
import re
import socket
import struct
import subprocess
import sys
import termios
import time

n = 0
fails = 0


def check(ok, what, detail=""):
    global n, fails
    n += 1
    fails += not ok
    print("%s %d - %s" % ("ok" if ok else "not ok", n, what))
    if not ok and detail:
        for line in str(detail).splitlines()[-6:]:
            print("# " + line)


def start(relay, scratch, name, wait=2):
    sock = os.path.join(scratch, name + ".sock")
    log = open(os.path.join(scratch, name + ".log"), "w+")
    p = subprocess.Popen([relay, "-q", sock, "-w", str(wait), "-s", "tcp:0"], stderr=log,
                         stdin=subprocess.DEVNULL)
    port = None
    for _ in range(200):
        log.seek(0)
        m = re.search(r"served on 127.0.0.1:(\d+)", log.read())
        if m and os.path.exists(sock):
            port = int(m.group(1))
            break
        time.sleep(0.05)
    q = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    q.connect(sock)
    return p, port, q, log


def said(log):
    log.seek(0)
    return log.read()


def unread(s):
    b = bytearray(4)
    fcntl.ioctl(s.fileno(), termios.FIONREAD, b)
    return struct.unpack("i", bytes(b))[0]


def read_all(s, limit=60):
    s.settimeout(limit)
    out = b""
    while True:
        try:
            k = s.recv(65536)
        except socket.timeout:
            return out, False
        if not k:
            return out, True
        out += k


def main(argv):
    relay, kevcapture, stream, scratch = argv[1:5]
    data = open(stream, "rb").read()
    first = data[:8 + struct.unpack_from("<H", data, 6)[0] + 4]      # the stream's first frame

    # A reader that reads 20000 bytes, stops until its socket is full, and closes; then QEMU
    # sends the rest and a second reader takes it to the end.
    p, port, q, log = start(relay, scratch, "left")
    q.sendall(data[:len(data) // 2])
    r1 = socket.create_connection(("127.0.0.1", port))
    got = b""
    while len(got) < 20000:
        got += r1.recv(20000 - len(got))
    last = -1
    while unread(r1) != last:                   # its socket fills, then stays still
        last = unread(r1)
        time.sleep(0.3)
    took = len(got) + unread(r1)
    r1.close()
    time.sleep(0.5)
    r2 = socket.create_connection(("127.0.0.1", port))
    q.sendall(data[len(data) // 2:])
    q.close()
    rest, eof = read_all(r2)
    r2.close()
    try:
        rc = p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = "hung"
    text = said(log)
    m = re.search(r"(\d+) bytes from QEMU, (\d+) delivered", text)
    delivered = int(m.group(2)) if m else -1
    head_again = re.search(r"given the header again \((\d+) bytes\)", text)
    hlen = int(head_again.group(1)) if head_again else 0
    check(delivered == took + len(rest) - hlen,
          "a reader that left: the relay says %d bytes delivered; the readers' sides took %d "
          "(the first %d: %d read, the rest unread in its socket; the second %d, less the "
          "header again %d)" % (delivered, took + len(rest) - hlen, took, len(got), len(rest),
                                hlen), text)
    check(rest.startswith(first) and eof,
          "the reader after it gets the stream's header frames first (%d bytes)" % hlen, text)
    cap = os.path.join(scratch, "again.stream")
    open(cap, "wb").write(rest)
    c = subprocess.run([kevcapture, "-o", os.path.join(scratch, "again.kev"), cap],
                       capture_output=True, text=True)
    bufs = re.search(r"(\d+) bytes in (\d+) frames written", c.stdout + c.stderr)
    check("frame(s) missing" in c.stderr and "no header arrived" not in c.stderr and bufs and
          int(bufs.group(1)) > 100000,
          "kevcapture over what it got: the header, then %s bytes decoded, the frames it "
          "missed said" % (bufs.group(1) if bufs else "no"), c.stderr)
    check(rc == 1 and "went away" in text,
          "the relay's exit status says no reader took the whole stream (exit %s)" % rc, text)

    # A second reader while one is served: refused at once, said.
    p, port, q, log = start(relay, scratch, "second")
    r1 = socket.create_connection(("127.0.0.1", port))
    q.sendall(data[:200000])
    r3 = socket.create_connection(("127.0.0.1", port))
    r3.settimeout(3)
    try:
        k = r3.recv(1)
        outcome = "closed" if k == b"" else "served"
    except socket.timeout:
        outcome = "neither refused nor served within 3 s"
    except OSError:
        outcome = "closed"
    time.sleep(0.3)
    check(outcome == "closed" and "refused" in said(log),
          "a second reader while one is served: refused and said (%s)" % outcome, said(log))
    r3.close()
    q.close()
    r1.close()
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()

    # A reader that connects and never reads: the relay ends within -w 2 s (and a margin)
    # after QEMU's end, says why, exit 1.
    p, port, q, log = start(relay, scratch, "mute")
    r4 = socket.create_connection(("127.0.0.1", port))
    q.sendall(data)
    q.close()
    t0 = time.monotonic()
    try:
        rc = p.wait(timeout=15)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = "still running after 15 s"
    dt = time.monotonic() - t0
    check(rc == 1 and dt < 8 and "took nothing" in said(log),
          "a reader that never reads: the relay ends %.1f s after QEMU (exit %s), said" % (dt, rc),
          said(log))
    r4.close()
    print("1..%d" % n)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
