#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Bad viewers for a live server's tests, and a session lister, written here from LTTng's live
viewer protocol (lttng-tools' doc/live-reading-protocol.md and lttng-viewer-abi.h: every integer
big-endian, structures packed; a command is u64 data_size, u32 cmd, u32 version, then its
data), not from the server's code.

usage: lttng_live_client.py list PORT
         prints each session as "session ID HOST NAME streams N clients N timer-us N"
       lttng_live_client.py garbage PORT
         sends bytes that are no command; prints "closed" when the server closes the
         connection (within 10 s), "open" if it does not
       lttng_live_client.py stall PORT HOST NAME SECONDS
         attaches to HOST/NAME from its beginning, reads the metadata and the index of a
         packet, then asks for that packet again and again without reading a reply; holds
         the connection SECONDS, then prints how many requests it could send ("sent N")
       lttng_live_client.py partial PORT SECONDS
         sends half a command header and holds the connection SECONDS
       lttng_live_client.py mute PORT N SECONDS
         opens N connections that never send a command, then, beside them, lists the
         sessions as a viewer: prints "listed K sessions", or "turned away" when the server
         closed the viewer; then, SECONDS later, "mute M still open" (of the N)
Exit status 0, 1 when the server did not answer as the protocol says."""
import socket
import struct
import sys
import time

CONNECT, LIST_SESSIONS, ATTACH_SESSION, GET_NEXT_INDEX, GET_PACKET, GET_METADATA = 1, 2, 3, 4, 5, 6
CREATE_SESSION = 8
SESSION = struct.Struct(">QIII64s255s")          # lttng_viewer_session (protocol 2.4)
STREAM = struct.Struct(">QQI4096s255s")          # lttng_viewer_stream
INDEX = struct.Struct(">QQQQQQQII")              # lttng_viewer_index


def command(s, cmd, data=b""):
    s.sendall(struct.pack(">QII", len(data), cmd, 0) + data)


def recv_exact(s, n):
    b = b""
    while len(b) < n:
        k = s.recv(n - len(b))
        if not k:
            raise EOFError("the server closed the connection")
        b += k
    return b


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    command(s, CONNECT, struct.pack(">QIII", 2**64 - 1, 2, 4, 1))
    _, major, minor, _ = struct.unpack(">QIII", recv_exact(s, 20))
    if major != 2:
        raise ValueError("protocol %d.%d" % (major, minor))
    return s


def sessions(s):
    command(s, LIST_SESSIONS)
    (n,) = struct.unpack(">I", recv_exact(s, 4))
    out = []
    for _ in range(n):
        sid, timer, clients, streams, host, name = SESSION.unpack(recv_exact(s, SESSION.size))
        out.append((sid, host.split(b"\0")[0].decode(), name.split(b"\0")[0].decode(),
                    streams, clients, timer))
    return out


def main(argv):
    if len(argv) < 3 or argv[1] not in ("list", "garbage", "stall", "partial", "mute"):
        print(__doc__)
        return 2
    port = int(argv[2])
    if argv[1] == "list":
        s = connect(port)
        for sid, host, name, streams, clients, timer in sessions(s):
            print("session %d %s %s streams %d clients %d timer-us %d" %
                  (sid, host, name, streams, clients, timer))
        return 0
    if argv[1] == "mute":
        mute = [socket.create_connection(("127.0.0.1", port), timeout=10)
                for _ in range(int(argv[3]))]
        time.sleep(0.5)
        try:
            s = connect(port)
            print("listed %d sessions" % len(sessions(s)))
        except (EOFError, OSError, ValueError, struct.error):
            print("turned away")
        time.sleep(float(argv[4]))
        still = 0
        for m in mute:
            m.setblocking(False)
            try:
                still += m.recv(1) != b""
            except BlockingIOError:
                still += 1
            except OSError:
                pass
        print("mute %d still open" % still)
        return 0
    if argv[1] == "garbage":
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"GET / HTTP/1.0\r\nHost: localhost\r\n\r\n" + bytes(range(256)))
        try:
            while s.recv(4096):
                pass
            print("closed")
        except ConnectionResetError:    # (closed with our bytes unread)
            print("closed")
        except socket.timeout:
            print("open")
            return 1
        return 0
    if argv[1] == "partial":
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(struct.pack(">QII", 20, CONNECT, 0)[:7])
        time.sleep(float(argv[3]))
        return 0
    host, name, hold = argv[3], argv[4], float(argv[5])
    s = connect(port)
    command(s, CREATE_SESSION)
    (status,) = struct.unpack(">I", recv_exact(s, 4))
    ids = [x[0] for x in sessions(s) if x[1] == host and x[2] == name]
    if status != 1 or not ids:
        print("no session %s/%s" % (host, name))
        return 1
    command(s, ATTACH_SESSION, struct.pack(">QQI", ids[0], 0, 1))
    status, count = struct.unpack(">II", recv_exact(s, 8))
    data, metas = [], []
    for _ in range(count):
        sid, _, meta, _, _ = STREAM.unpack(recv_exact(s, STREAM.size))
        (metas if meta else data).append(sid)
    if status != 1 or not data or not metas:
        print("attach: status %d, %d streams" % (status, count))
        return 1
    while True:     # the metadata first: no packet is given before it
        command(s, GET_METADATA, struct.pack(">Q", metas[0]))
        n, st = struct.unpack(">QI", recv_exact(s, 12))
        recv_exact(s, n)
        if st != 1:
            break
    # a packet's index (the first one held), its bytes then asked for again and again
    until = time.monotonic() + hold
    while True:
        command(s, GET_NEXT_INDEX, struct.pack(">Q", data[0]))
        off, size, _, _, _, _, _, st, _ = INDEX.unpack(recv_exact(s, INDEX.size))
        if st == 1:
            break
        if time.monotonic() > until:
            print("no packet came")
            return 1
        time.sleep(0.05)
    # From here on nothing is read: the replies fill the server's socket and ours, then the
    # server holds the rest and reads nothing more from us.
    s.setblocking(False)
    req = struct.pack(">QII", 20, GET_PACKET, 0) + struct.pack(">QQI", data[0], off, size // 8)
    sent, pending = 0, b""
    while time.monotonic() < until:
        if not pending:
            pending = req
            sent += 1
        try:
            pending = pending[s.send(pending):]
        except BlockingIOError:
            time.sleep(0.1)
        except (ConnectionResetError, BrokenPipeError):
            print("sent %d, then the server closed the connection" % sent)
            return 0
    print("sent %d" % sent)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
