#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# A load on kevweb over loopback, bounded in count and time, and a viewer beside it: the
# viewer's page must come within 2 s by its own clock, byte for byte the page's source file.
#   slow N SECS: N connections that send a request a byte at a time (a byte a second, never
#     ending it), reopened as soon as kevweb closes one, for SECS seconds;
#   held N SECS: N connections that ask for the event stream and never read it (a 4 KB receive
#     buffer), reopened likewise.
# Half the load comes from 127.0.0.1, the viewer's own address, half from 127.0.0.2-9 (a
# peer's caps must not be the only defence). Every 0.5 s the viewer fetches / (compared with
# PAGE) and reads the stream's first snapshot; each must finish within 2 s. The load runs in
# a child at nice 10 (the generator must not starve the server it measures). Prints TAP.
#   kevweb_flood.py PORT PAGE slow|held N SECS
import os, resource, socket, sys, time

port, page, kind, count, secs = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
want = open(page, "rb").read()
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 256)), hard))
REQ = b"GET / HTTP/1.1\r\nHost: localhost\r\nUser-Agent: slow\r\nX-Slow: " + b"a" * 4000
STREAM = b"GET /events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n"
ESTABLISHED = 1                    # Linux's tcp_states (CLOSE_WAIT, CLOSE: the peer closed)
load = []                          # [socket, bytes of REQ sent, index]
opened = closed = 0


def open_one(i):
    """Connection i of the load (None when the server did not take it within 0.5 s)."""
    global opened
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if kind == "held":
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.bind(("127.0.0.1" if i % 2 == 0 else "127.0.0.%d" % (2 + i % 8), 0))
    s.settimeout(0.5)
    try:
        s.connect(("127.0.0.1", port))
        s.send(STREAM if kind == "held" else REQ[:1])
    except OSError:
        s.close()
        return None
    s.setblocking(False)
    opened += 1
    return [s, 1, i]


def pump():
    """Once a second: each load connection still open sends its next byte (slow); one kevweb
    closed (its TCP state no longer ESTABLISHED, or an error) is opened again."""
    global closed
    for k, c in enumerate(load):
        if c is None:
            load[k] = open_one(k)
            continue
        s = c[0]
        dead = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0] != ESTABLISHED
        if not dead and kind == "slow" and c[1] < len(REQ):
            try:
                s.send(REQ[c[1]:c[1] + 1])
                c[1] += 1
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                dead = True
        if dead:
            s.close()
            closed += 1
            load[k] = open_one(k)


def viewer():
    """The page and the stream's first snapshot, as a browser asks for them: (seconds, ok)."""
    t0 = time.monotonic()
    phase = "connecting for the page"
    try:
        c = socket.create_connection(("127.0.0.1", port), timeout=2)
        phase = "reading the page after %.2f s" % (time.monotonic() - t0)
        c.sendall(b"GET / HTTP/1.1\r\nHost: localhost:%d\r\nConnection: close\r\n\r\n" % port)
        body = b""
        while time.monotonic() - t0 < 2:
            b = c.recv(65536)
            if not b:
                break
            body += b
        c.close()
        head, _, got = body.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200") or got != want:
            return time.monotonic() - t0, "page: " + head[:40].decode(errors="replace")
        phase = "connecting for the stream after %.2f s" % (time.monotonic() - t0)
        c = socket.create_connection(("127.0.0.1", port), timeout=max(0.01, 2 - (time.monotonic() - t0)))
        phase = "reading the stream after %.2f s" % (time.monotonic() - t0)
        c.sendall(b"GET /events HTTP/1.1\r\nHost: localhost:%d\r\n\r\n" % port)
        data = b""
        while b"event: snap" not in data or not data.split(b"event: snap", 1)[1].count(b"\n\n"):
            if time.monotonic() - t0 >= 2:
                break
            b = c.recv(65536)
            if not b:
                break
            data += b
        c.close()
        if b"event: snap" not in data:
            return time.monotonic() - t0, "stream: " + data[:40].decode(errors="replace")
        return time.monotonic() - t0, ""
    except OSError as e:
        return time.monotonic() - t0, "%s (%s)" % (e, phase)


# The load in a child at a lower priority (nice 10), the viewer here: on a busy machine the
# load generator must not take the CPU the server and the viewer need (the server's share is
# what is measured, not the generator's).
t_end = time.monotonic() + secs
rfd, wfd = os.pipe()
child = os.fork()
if child == 0:
    os.close(rfd)
    os.nice(10)
    for i in range(count):
        load.append(open_one(i))
    while time.monotonic() < t_end:
        pump()
        time.sleep(max(0, 1 - (time.monotonic() % 1)))
    os.write(wfd, ("%d %d" % (opened, closed)).encode())
    os._exit(0)
os.close(wfd)
time.sleep(min(3, secs / 4))   # the load in place
times, bad = [], []
while time.monotonic() < t_end:
    t, why = viewer()
    times.append(t)
    if why or t >= 2:
        bad.append("%.2f s %s" % (t, why))
    time.sleep(0.5)
os.waitpid(child, 0)
opened, closed = map(int, (os.read(rfd, 100).decode() or "0 0").split())
print("# %s load: %d connections held at once, %d opened in all (%d seen closed by kevweb and reopened)"
      % (kind, count, opened, closed))
ok = times and not bad
print("%s 1 - %d connections %s: the viewer got its page and stream %d times, each within 2 s "
      "(the slowest %.2f s)" % ("ok" if ok else "not ok", count, kind, len(times), max(times or [0])))
if bad:
    print("# " + "; ".join(bad[:8]))
print("1..1")
sys.exit(0 if ok else 1)
