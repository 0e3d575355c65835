#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The tracelogger's framed stream of a .kev file, written here from the layouts in
trace/include/trace/kev_stream.h and docs/kev-format.md (not from the C code): each write the
logger makes (the header, the system page, each buffer, the loss note with the trailer) cut into
DATA frames of at most 1024 bytes, then END. With --fault, one fault a real line can have, at a
frame: the live tools' fault tests compare what they count with what was injected here.

usage: kev_stream.py FILE.kev OUT [--fault KIND:FRAME] [--pace BYTES:SECONDS] [--raw]
                     [--stamp FILE] [--idle WRITE:SECONDS [--beat-past]] [--beat TIME]
  KIND: drop (a frame missing), cut (a frame cut after 300 bytes), garbage (bytes between two
  frames), repeat (a frame sent twice), swap (a frame after the next), reset (the stream
  restarted from its header at FRAME: a board reset), dupbuf (the buffer starting at unit
  FRAME sent twice, framed anew), loss (a LOSS frame at FRAME: the board dropped 1234 events
  of CPU 0 in 2 buffers, the host not reading), end (an END frame at FRAME true to the
  file's bytes before it: an end the stream then contradicts), tamper (garbage before frame
  FRAME, then a bit of frame FRAME+5's payload flipped under a CRC made good), lossbad (a LOSS
  frame before the logger's write FRAME, its payload damaged: it fails its CRC), resets (the
  board restarted FRAME times: the stream's first 3 frames FRAME times, then all of it)
  --pace: write BYTES at a time, sleeping SECONDS between writes (OUT grows like a live stream)
  --raw: no frames, the file itself (with --pace: a .kev file growing as the board writes it)
  --stamp FILE: the host's monotonic clock (s) when the last byte was written, into FILE
  --idle: after the logger's write WRITE (0 the header, 1 the system page, 2 the first buffer),
  a HEARTBEAT frame, then nothing for SECONDS (a board with nothing to say): its time is one
  cycle before the earliest event still to come (a trace shorter than 2^32 cycles); prints
  "heartbeat TIME" and "idle START END" (the host's monotonic clock)
  --beat-past: --idle's HEARTBEAT at WRITE itself, one cycle past the earliest event still to
  come (a logger that read its clock after an event it had not sent)
  --beat: a HEARTBEAT frame saying the board's time is TIME (cycles) before the last write (the
  loss note and trailer): the board idle after its last buffer until TIME; no pause
Prints "frames N" and, with a fault, what it injected ("garbage_bytes 37", "lost_frames 1")."""
import struct
import sys
import time
import zlib

MAX = 1024
GARBAGE = b"\r\nU-Boot 2024.01 (garbage on the line) KS\x01"


def units(kev):
    """The offsets of the logger's writes: header, system page, buffers, note + trailer."""
    end = kev.index(b"TRACE_HEADER_END::") + len(b"TRACE_HEADER_END::")
    hdr = kev[:end].decode("latin-1")
    splen = int(hdr.split("TRACE_SYSPAGE_LEN::")[1].split("TRACE_")[0])
    big = "TRACE_BIG_ENDIAN::" in hdr
    fmt = ">I" if big else "<I"
    cuts = [0, end, end + splen]
    off = end + splen
    while off + 16 <= len(kev):
        h = struct.unpack_from(fmt, kev, off)[0]
        cls, ev = (h >> 10) & 0x1F, h & 0x3FF
        if not (cls == 1 and ev == 2):          # CONTROL BUFFER: else the note / trailer
            break
        while True:
            h = struct.unpack_from(fmt, kev, off)[0]
            off += 16
            if (h >> 10) & 0x1F == 1 and h & 0x3FF == 4 and (h >> 30) == 0:
                break
        cuts.append(off)
    if cuts[-1] != len(kev):
        cuts.append(len(kev))
    return cuts


def frame(ftype, seq, payload):
    body = struct.pack("<BBHH", ftype, 0, seq & 0xFFFF, len(payload)) + payload
    return b"KS" + body + struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)


def payloads(kev, dupbuf=None):
    """The stream of kev as (type, payload) pairs, in order; END last."""
    out = []
    cuts = units(kev)
    writes = [(cuts[i], cuts[i + 1]) for i in range(len(cuts) - 1)]
    if dupbuf is not None:
        writes.insert(dupbuf + 1, writes[dupbuf])
    total = b"".join(kev[a:b] for a, b in writes)
    for a, b in writes:
        for o in range(a, b, MAX):
            out.append((1, kev[o:min(o + MAX, b)]))
    out.append((2, struct.pack("<II", len(total) & 0xFFFFFFFF, zlib.crc32(total) & 0xFFFFFFFF)))
    return out


def loss_payload(events, cpu=0, reason=2):
    """A LOSS frame's payload (kev_stream.h): t_first, t_last, offset, events, total (u64);
    cpu, reason, buffers, first_seq (u32)."""
    return struct.pack("<QQQQQIIII", 0, 0, 0, events, events, cpu, reason, 2, 0)


def heartbeat(kev, write, past=False):
    """A HEARTBEAT after the logger's write `write`, or the first write after it where a logger
    could send one (every buffer sent so far ended before any buffer still to come begins: a
    logger sends one only when its flush found nothing, so its time is past every event sent),
    as (frame index, payload, time): time, one cycle before the first slot of each buffer after
    it (its time word; the earliest), offset, interval_ms, buffers."""
    cuts = units(kev)
    fmt = ">I" if b"TRACE_BIG_ENDIAN::" in kev[:cuts[1]] else "<I"
    is_buf = lambda i: (struct.unpack_from(fmt, kev, cuts[i])[0] >> 10) & 0x1F == 1
    while True:
        later = [struct.unpack_from(fmt, kev, cuts[i] + 4)[0]
                 for i in range(write + 1, len(cuts) - 1) if is_buf(i)]
        ended = [struct.unpack_from(fmt, kev, cuts[i + 1] - 16 + 4)[0]
                 for i in range(2, write + 1) if is_buf(i)]
        if past or not later or not ended or max(ended) < min(later) - 1:
            break
        write += 1
    frames = sum((cuts[i + 1] - cuts[i] + MAX - 1) // MAX for i in range(write + 1))
    t = min(later) + 1 if past else min(later) - 1
    return frames, struct.pack("<QQII", t, cuts[write + 1], 100, write - 1), t


def heartbeat_at_end(kev, t):
    """A HEARTBEAT at time t before the logger's last write (the loss note and trailer), as
    heartbeat() gives one."""
    cuts = units(kev)
    last = len(cuts) - 2
    frames = sum((cuts[i + 1] - cuts[i] + MAX - 1) // MAX for i in range(last))
    return frames, struct.pack("<QQII", t, cuts[last], 100, last - 2), t


def stream(kev, dupbuf=None, loss_at=None, loss_events=0, beat=None):
    """The frames of kev, one bytes object each, numbered from 0; END last."""
    pl = payloads(kev, dupbuf)
    if loss_at is not None:
        pl.insert(loss_at, (4, loss_payload(loss_events)))
    if beat is not None:
        pl.insert(beat[0], (3, beat[1]))
    return [frame(t, seq, p) for seq, (t, p) in enumerate(pl)]


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) > 1 else 2
    kev = open(argv[1], "rb").read()
    fault, pace, raw, stamp, idle, beat_t, past = None, None, False, None, None, None, False
    i = 3
    while i < len(argv):
        if argv[i] == "--fault":
            kind, at = argv[i + 1].split(":")
            fault = (kind, int(at))
            i += 2
        elif argv[i] == "--pace":
            n, s = argv[i + 1].split(":")
            pace = (int(n), float(s))
            i += 2
        elif argv[i] == "--beat-past":
            past = True
            i += 1
        elif argv[i] == "--raw":
            raw = True
            i += 1
        elif argv[i] == "--stamp":
            stamp = argv[i + 1]
            i += 2
        elif argv[i] == "--beat":
            beat_t = int(argv[i + 1])
            i += 2
        elif argv[i] == "--idle":
            w, sec = argv[i + 1].split(":")
            idle = (int(w), float(sec))
            i += 2
        else:
            print("kev_stream.py: unknown option " + argv[i], file=sys.stderr)
            return 2
    beat = heartbeat(kev, idle[0], past) if idle else None
    if beat_t is not None:
        beat = heartbeat_at_end(kev, beat_t)
    fr = stream(kev, fault[1] if fault and fault[0] == "dupbuf" else None,
                fault[1] if fault and fault[0] == "loss" else None, 1234, beat)
    said = ["heartbeat %d" % beat[2]] if beat else []
    if fault and fault[0] == "loss":
        said.append("board_lost 1234")
    if fault and fault[0] not in ("dupbuf", "loss"):
        kind, k = fault
        if kind == "drop":
            del fr[k]
            said.append("lost_frames 1")
        elif kind == "cut":
            fr[k] = fr[k][:300]
            said.append("lost_frames 1")
        elif kind == "garbage":
            fr.insert(k, GARBAGE)
            said.append("garbage_bytes %d" % len(GARBAGE))
        elif kind == "repeat":
            fr.insert(k + 1, fr[k])
        elif kind == "swap":
            fr[k], fr[k + 1] = fr[k + 1], fr[k]
        elif kind == "reset":
            fr = fr[:k] + stream(kev)
        elif kind == "tamper":
            t, seq, ln = fr[k + 5][2], struct.unpack_from("<H", fr[k + 5], 4)[0], \
                struct.unpack_from("<H", fr[k + 5], 6)[0]
            p = bytearray(fr[k + 5][8:8 + ln])
            p[40] ^= 0x10
            fr[k + 5] = frame(t, seq, bytes(p))
            fr.insert(k, GARBAGE)
            said.append("garbage_bytes %d" % len(GARBAGE))
        elif kind == "lossbad":
            cuts = units(kev)
            at = sum((cuts[i + 1] - cuts[i] + MAX - 1) // MAX for i in range(k))
            pl = payloads(kev)
            pl.insert(at, (4, loss_payload(100)))
            fr = [frame(t, seq, p) for seq, (t, p) in enumerate(pl)]
            bad = bytearray(fr[at])
            bad[8] ^= 1
            fr[at] = bytes(bad)
            said.append("lost_frames 1")
        elif kind == "resets":
            fr = fr[:3] * k + fr
        elif kind == "end":
            data = b"".join(p for t, p in payloads(kev)[:k] if t == 1)
            end = struct.pack("<II", len(data), zlib.crc32(data) & 0xFFFFFFFF)
            fr = [frame(t, seq, p) for seq, (t, p) in
                  enumerate(payloads(kev)[:k] + [(2, end)] + payloads(kev)[k:])]
    data = kev if raw else b"".join(fr)
    # the stream in parts: with --idle, up to the HEARTBEAT frame, then the rest after the pause
    parts = [data] if not idle else [b"".join(fr[:beat[0] + 1]), b"".join(fr[beat[0] + 1:])]
    with open(argv[2], "wb") as o:
        for k, part in enumerate(parts):
            if k:
                t0 = time.monotonic()
                time.sleep(idle[1])
                said.append("idle %.3f %.3f" % (t0, time.monotonic()))
            step = pace[0] if pace else len(part)
            for off in range(0, len(part), step):
                o.write(part[off:off + step])
                o.flush()
                if pace and off + step < len(part):
                    time.sleep(pace[1])
    if stamp:
        with open(stamp, "w") as f:
            f.write("%.3f\n" % time.monotonic())
    print("frames %d" % len(fr))
    for s in said:
        print(s)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
