#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# kevdump against a halted target's memory that a GDB server of the test's own serves
# (gdb_mem_server.py): the kernel's flight-recorder map and ring over the buffers of a kevgen
# capture (flight_image.py). The truths: kevgen's file (kevdump must write its buffers byte for
# byte, an open one closed with the BUFFER_END the ring itself wrote, and the loss counts the
# CPU's words hold); the map's layout as trace/kev_flight.h draws it; and for each field of the
# map damaged (each of its 20 words, its magic, its two addresses; past its range, and two
# fields put in one place), for the ring's damaged words (its buffer count and address) a
# sentence naming it, exit 1, no file written and nothing read past the map. A table entry
# that lies (a FULL buffer of 5,000 slots, a state the kernel never writes) is left out and
# said, the rest written. Run with kevdump built with ASan and UBSan too (kevdump-map-asan): no
# sanitizer report, so no read outside what kevdump fetched.
#   test/tools/test_kevdump_map.py HOST_DIR KEVDUMP
import os
import struct
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flight_image import (BASE, FIELDS, MEM_AT, NCPUS_AT, RING_AT, image, layout,  # noqa: E402
                          map_bytes)
from gdb_mem_server import MemServer  # noqa: E402
from probe_block import kevgen  # noqa: E402
import tap_check  # noqa: E402

H = sys.argv[1] if len(sys.argv) > 1 else "build/host"
KEVDUMP = sys.argv[2] if len(sys.argv) > 2 else os.path.join(H, "kevdump")
TMP = tempfile.mkdtemp()
ENV = dict(os.environ, ASAN_OPTIONS="exitcode=86:detect_leaks=1", UBSAN_OPTIONS="exitcode=86")


def dump(mem, map_at=BASE):
    """kevdump over mem (BASE on): its status, stderr, the file's bytes (b"" if none) and the
    reads it made."""
    sock = os.path.join(TMP, "gdb.sock")
    if os.path.exists(sock):
        os.unlink(sock)
    srv = MemServer({BASE: mem}, sock)
    srv.start()
    out = os.path.join(TMP, "dump.kev")
    if os.path.exists(out):
        os.unlink(out)
    r = subprocess.run([KEVDUMP, "-q", "-g", srv.where, "-a", hex(map_at), "-o", out],
                       capture_output=True, text=True, timeout=60, env=ENV)
    srv.join(5)
    srv.close()
    data = open(out, "rb").read() if os.path.exists(out) else b""
    return r.returncode, r.stderr.strip(), data, srv.reads


def events_part(data):
    """A .kev's bytes from the first buffer to the trailer's start (its last slots)."""
    end = data.index(b"TRACE_HEADER_END::") + len(b"TRACE_HEADER_END::")
    page = int(data[data.index(b"TRACE_SYSPAGE_LEN::") + 19:].split(b"TRACE_")[0])
    return data[end + page:]


def clean(err):
    return "Sanitizer" not in err and "runtime error" not in err


data, end, page_len, bufs = kevgen(H, 3000)
whole = b"".join(bufs)

rc, err, out, _ = dump(image(bufs, dropped=7, overwritten=5))
body = events_part(out) if out else b""
tap_check.check("kevdump writes kevgen's %d buffers byte for byte (%s)" % (len(bufs), err or "silent"),
                rc == 0 and body[:len(whole)] == whole and clean(err), (rc, err))
tp = subprocess.run([os.path.join(H, "traceprinter"), os.path.join(TMP, "dump.kev")],
                    capture_output=True, text=True).stdout
tap_check.check("traceprinter's loss is the CPU's 7 dropped and 5 overwritten events",
                "lost events: 12 " in tp, [l for l in tp.splitlines() if "lost" in l][-3:])

# The open buffer: its slots to the write pointer, then kevdump's BUFFER_END, which has the
# ring's own (its sequence and event count) but the last event's time (the ring's was the
# close's, which a halted ring never reached).
rc, err, out, _ = dump(image(bufs, open_last=True))
body = events_part(out) if out else b""
n = len(whole) - 16
last_t = struct.unpack_from("<I", whole, n - 12)[0]
ring_end = struct.unpack_from("<4I", whole, n)
our_end = struct.unpack_from("<4I", body, n) if len(body) >= n + 16 else ()
tap_check.check("an open buffer is written to its CPU's write pointer and closed with the "
                "ring's BUFFER_END (seq and %d events) at its last event's time" % ring_end[3],
                rc == 0 and body[:n] == whole[:n] and clean(err) and
                our_end == (ring_end[0], last_t, ring_end[2], ring_end[3]), (rc, err, our_end, ring_end))

f64 = layout(ptr=8, max_bufs=len(bufs))
rc, err, out, _ = dump(image(bufs, f=f64))
tap_check.check("a 64-bit target's map (8-byte pointers) reads the same buffers",
                rc == 0 and events_part(out)[:len(whole)] == whole and clean(err), (rc, err))

# Each field of the map out of its range: (what is changed, its value, a word the sentence
# must hold). A damaged map is refused before anything past it is read.
READ_BYTES = 88 + 16
damage = [(k, 0xfffffff0, "(%s)" % k) for k in FIELDS if k not in ("version", "ptr_bytes")]
damage += [(k, 0xffffffff, k) for k in FIELDS if k.startswith("off_")]    # "no field"
damage += [("version", 2, "version 2"), ("ptr_bytes", 3, "(ptr_bytes)"),
           ("max_cpus", 0, "(max_cpus)"), ("max_cpus", 65, "(max_cpus)"),
           ("max_bufs", 0, "(max_bufs)"), ("max_bufs", 1025, "(max_bufs)"),
           ("buf_stride", 8, "(buf_stride)"), ("cpu_stride", 1024, "(cpu_stride)"),
           ("off_state", 0, "overlap"), ("off_cpu", 40, "overlap"), ("off_cur", 40, "overlap")]
for field, value, says in damage:
    f = layout(max_bufs=max(8, len(bufs)))
    f[field] = value
    mem = image(bufs)
    m = map_bytes(f)
    mem[0:len(m)] = m
    rc, err, out, reads = dump(mem)
    past = [r for r in reads if not (r[0] == BASE and r[1] == READ_BYTES)]
    tap_check.check("map's %s = %#x: refused, a sentence (%s), exit 1, nothing read past it" %
                    (field, value, err.replace("\n", " ")[:160]),
                    rc == 1 and says in err and "no valid flight-recorder map" in err and
                    not out and not past and clean(err), (rc, err, past[:3]))

for what, at, value, says in [("magic", 0, b"KEVFLT2\0", "its magic"),
                              ("ring", 88, b"\0\0\0\0", "(ring)"),
                              ("ncpus_addr", 92, b"\0\0\0\0", "(ncpus_addr)")]:
    mem = image(bufs)
    mem[at:at + len(value)] = value
    rc, err, out, _ = dump(mem)
    tap_check.check("map's %s damaged: refused (%s), exit 1" % (what, err[:120]),
                    rc == 1 and says in err and not out and clean(err), (rc, err))

# The ring's own words: its buffer count past the map's room, its buffers at no address or
# past the end of a 32-bit target's.
for what, at, fmt, value, says in [("buffer count", RING_AT + 4, "<I", 9999, "9999 buffers"),
                                   ("buffers' address", RING_AT, "<I", 0, "no address"),
                                   ("buffers' address", RING_AT, "<I", 0xffffc000, "past the end")]:
    mem = image(bufs)
    struct.pack_into(fmt, mem, at, value)
    rc, err, out, reads = dump(mem)
    far = [r for r in reads if r[0] >= BASE + MEM_AT or r[0] < BASE]
    tap_check.check("the ring's %s = %#x: refused (%s), exit 1, no buffer read" %
                    (what, value, err[:140]), rc == 1 and says in err and not out and not far
                    and clean(err), (rc, err, far[:3]))

mem = image(bufs)
struct.pack_into("<I", mem, NCPUS_AT, 1000)
rc, err, out, _ = dump(mem)
tap_check.check("a CPUs-online count of 1000 is said and the map's 2 CPUs read (%s)" % err[:100],
                rc == 0 and "is 1000, not 1 to 2" in err and clean(err) and
                events_part(out)[:len(whole)] == whole, (rc, err))

# A table that lies about one buffer: left out and said, the others written.
f = layout(max_bufs=max(8, len(bufs)))
entry = RING_AT + f["off_buf"] + f["buf_stride"] * 1
for what, off, fmt, value, says in [("5000 slots", f["off_nslots"], "<H", 5000, "says it holds 5000"),
                                    ("state 7", f["off_state"], "<B", 7, "state 7")]:
    mem = image(bufs)
    struct.pack_into(fmt, mem, entry + off, value)
    rc, err, out, _ = dump(mem)
    rest = bufs[0] + b"".join(bufs[2:])
    tap_check.check("a FULL buffer of %s is left out and said (%s), the others written" %
                    (what, err[:120]), rc == 0 and says in err and "1 buffers were not" in err
                    and events_part(out)[:len(rest)] == rest and clean(err), (rc, err))

tap_check.plan()
tap_check.exit_status()
