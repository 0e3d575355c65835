#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The live stream's frames read on their own, for the live stream tests: an independent
# reading of the framing that trace/kev_stream.h documents (our decoder is not used), so the
# tests compare the board's frames with the board's clock and counters, not with our decoder.
#   stream_frames.py read PORT OUT [--pause-after BYTES | --pause-every SEC] [--pause SEC]
#                                   [--until FILE:TEXT]
#       a reader on 127.0.0.1:PORT (retried until it listens) that saves the raw stream in
#       OUT, and after BYTES (or every SEC seconds of the host's clock) stops reading for SEC
#       seconds (a host that stops reading); with --until, it first stays stopped until FILE
#       holds TEXT (kevrelay -s saying it sent XOFF: the board then has SEC seconds stopped,
#       however fast the host runs it), at most a minute; its socket's receive buffer is small,
#       so that a pause reaches the board soon
#   stream_frames.py parse RAW
#       one line per HEARTBEAT ("heartbeat TIME OFFSET INTERVAL_MS BUFFERS") and LOSS
#       ("loss CPU REASON EVENTS BUFFERS TOTAL FIRST_SEQ T_FIRST T_LAST OFFSET") in stream
#       order, then "frames N data BYTES heartbeats H loss_events L bad_crc B gaps G junk J
#       end OK|MISSING|BAD slots S" (data: the file's bytes, a SLOTS frame's slots 16 bytes
#       each; S: the SLOTS frames)
#   stream_frames.py file RAW OUT [REF]
#       the file the stream carries, rebuilt into OUT: DATA frames' bytes, and the slots of
#       the KEY and SLOTS frames (the compact encoding) expanded as trace/kev_wire.h says, by
#       this reading of it alone; exit 1 when a frame does not expand or one is missing. REF:
#       the file of the DATA frames and the board's own copy of each buffer (REF frames,
#       tracelogger -x wire=check), to compare OUT with
import socket
import struct
import sys
import time
import zlib

DATA, END, HEARTBEAT, LOSS, KEY, SLOTS, REF = 1, 2, 3, 4, 5, 6, 7
KW_CODES, KW_DEFINE, KW_RAW = 240, 0xf0, 0xf1


def uvarint(p, i):
    v = shift = 0
    while True:
        b = p[i]
        i += 1
        v |= (b & 0x7f) << shift
        shift += 7
        if not b & 0x80:
            return v & 0xffffffff, i


def unzigzag(z):
    return (z >> 1) ^ (-(z & 1) & 0xffffffff)


def key(p, codes):
    first, count = struct.unpack_from('<HH', p)
    for k in range(count):
        h, enc = struct.unpack_from('<IB', p, 4 + 5 * k)
        codes[first + k] = (h, enc)


def expand(p, codes):
    # a SLOTS payload -> the slots' bytes (little-endian words), as trace/kev_wire.h has them
    cpu, _flags, _bseq, _first, n, t, total = struct.unpack_from('<BBHHHII', p)
    i, out, prev, s = 16, [], {}, 0
    for _ in range(n):
        c = p[i]
        i += 1
        if c == KW_RAW:
            h, = struct.unpack_from('<I', p, i)
            i += 4
            enc, pv = 0x44, [0, 0]
        else:
            if c == KW_DEFINE:
                c, h, enc = struct.unpack_from('<BIB', p, i)
                codes[c] = (h, enc)
                i += 6
            h, enc = codes[c]
            h |= cpu << 24
            pv = prev.setdefault(c, [0, 0])
        dt, i = uvarint(p, i)
        t = (t + dt) & 0xffffffff
        w = []
        for k, e in enumerate((enc & 15, enc >> 4)):
            if e == 4:
                v, = struct.unpack_from('<I', p, i)
                i += 4
            else:
                v, i = uvarint(p, i)
                if e == 0:
                    v = pv[k] = (pv[k] + unzigzag(v)) & 0xffffffff
                elif e == 2:
                    v = unzigzag(v)
                elif e == 3:
                    v = (t + unzigzag(v)) & 0xffffffff
            w.append(v)
        s += h + t + w[0] + w[1]
        out.append(struct.pack('<IIII', h, t, w[0], w[1]))
    if i != len(p) or s & 0xffffffff != total:
        raise ValueError('the SLOTS frame does not expand')
    return b''.join(out)


def wait_for(until):
    path, text = until.split(':', 1)
    for _ in range(600):
        try:
            if text in open(path, errors='replace').read():
                return
        except OSError:
            pass
        time.sleep(0.1)


def read(port, out, pause_after, pause, every=None, until=None):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
    for _ in range(300):
        try:
            s.connect(('127.0.0.1', port))
            break
        except OSError:
            time.sleep(0.1)
    else:
        sys.exit('stream_frames: nothing listens on port %d' % port)
    got, paused = 0, pause_after is None
    next_pause = time.monotonic() + every if every else None
    with open(out, 'wb') as f:
        while True:
            d = s.recv(65536)
            if not d:
                break
            f.write(d)
            f.flush()           # (OUT may be a pipe another reader follows live)
            got += len(d)
            if not paused and got >= pause_after:
                paused = True
                f.flush()
                if until:
                    wait_for(until)
                time.sleep(pause)
            if next_pause and time.monotonic() >= next_pause:
                f.flush()
                time.sleep(pause)
                next_pause = time.monotonic() + every


def parse(raw, out=None, ref=None):
    b = open(raw, 'rb').read()
    codes, ok, slots = {}, True, 0
    i = frames = data = heartbeats = loss_events = bad = gaps = junk = 0
    nseq, end = None, 'MISSING'
    while i + 12 <= len(b):
        if b[i:i + 2] != b'KS':
            i += 1
            junk += 1
            continue
        typ, _flags, seq, ln = struct.unpack_from('<BBHH', b, i + 2)
        if ln > 1024 or i + 12 + ln > len(b):
            i += 1
            junk += 1
            continue
        body = b[i + 2:i + 8 + ln]
        crc, = struct.unpack_from('<I', b, i + 8 + ln)
        if zlib.crc32(body) != crc:
            bad += 1
            i += 1
            continue
        if nseq is not None and seq != nseq:
            gaps += 1
        nseq = (seq + 1) & 0xffff
        frames += 1
        p = b[i + 8:i + 8 + ln]
        if typ == DATA:
            data += ln
            if out:
                out.write(p)
            if ref:
                ref.write(p)
        elif typ == REF:
            if ref:
                ref.write(p)
        elif typ == KEY:
            key(p, codes)
        elif typ == SLOTS:
            data += 16 * struct.unpack_from('<H', p, 6)[0]
            slots += 1
            if out:
                try:
                    out.write(expand(p, codes))
                except (ValueError, KeyError, IndexError, struct.error):
                    ok = False
        elif typ == HEARTBEAT:
            t, off, ms, bufs = struct.unpack_from('<QQII', p)
            heartbeats += 1
            print('heartbeat %d %d %d %d' % (t, off, ms, bufs))
        elif typ == LOSS:
            t0, t1, off, ev, tot, cpu, why, bufs, seq0 = struct.unpack_from('<QQQQQIIII', p)
            loss_events += ev
            print('loss %d %d %d %d %d %d %d %d %d' % (cpu, why, ev, bufs, tot, seq0, t0, t1, off))
        elif typ == END:
            length, _ = struct.unpack_from('<II', p)
            end = 'OK' if length == data & 0xffffffff else 'BAD'
        i += 12 + ln
    print('frames %d data %d heartbeats %d loss_events %d bad_crc %d gaps %d junk %d end %s slots %d'
          % (frames, data, heartbeats, loss_events, bad, gaps, junk + len(b) - i, end, slots))
    return ok and not bad and not gaps and end == 'OK'


if __name__ == '__main__':
    a = sys.argv[1:]
    if len(a) >= 3 and a[0] == 'read':
        pa = int(a[a.index('--pause-after') + 1]) if '--pause-after' in a else None
        ps = float(a[a.index('--pause') + 1]) if '--pause' in a else 0.0
        ev = float(a[a.index('--pause-every') + 1]) if '--pause-every' in a else None
        un = a[a.index('--until') + 1] if '--until' in a else None
        read(int(a[1]), a[2], pa, ps, ev, un)
    elif len(a) == 2 and a[0] == 'parse':
        parse(a[1])
    elif len(a) in (3, 4) and a[0] == 'file':
        with open(a[2], 'wb') as o, open(a[3] if len(a) == 4 else '/dev/null', 'wb') as r:
            sys.exit(0 if parse(a[1], o, r if len(a) == 4 else None) else 1)
    else:
        sys.exit(__doc__ if __doc__ else 'usage: stream_frames.py read PORT OUT | parse RAW')
