#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An independent count of a .kev capture's stack samples, read from the bytes by
# docs/kev-format.md alone (not through trace/): after the ASCII header and SYSPAGE_LEN bytes
# of system page come 16-byte slots [header, t, data1, data2]; header bits 0-9 event, 10-14
# class, 24-29 CPU, 30-31 slot type (1: a combine event's first slot, whose data1/data2 are its
# first two payload words). A SYSTEM (5) STACK (0x205) whose info word (payload word 1) has
# kind 1 (user) or 2 (kernel) in bits 0-3 is a sample (docs/trace-events.md). A slot's t is the
# low word of the cycle count; CONTROL (1) TIME (1) gives the high word (data1) on its CPU.
#   kev_count_stacks.py FILE.kev           -> prints the number of samples
#   kev_count_stacks.py --times FILE.kev   -> one line a sample: "cpu ns" (ns since boot, in
#                                             the kernel's integer conversion of the cycles)
import re, struct, sys

times = sys.argv[1] == "--times"
d = open(sys.argv[-1], "rb").read()
end = d.index(b"TRACE_HEADER_END::") + len(b"TRACE_HEADER_END::")
head = d[:end].decode("latin-1")
little = "TRACE_LITTLE_ENDIAN::TRUE" in head
syslen = int(re.search(r"TRACE_SYSPAGE_LEN::(\d+)", head).group(1))
hz = int(re.search(r"TRACE_CYCLES_PER_SEC::(\d+)", head).group(1))
if "TRACE_VER_MINOR::01" in head and d[end:end + 1] == b"\n":
    end += 1
p, n, high = end + syslen, 0, {}
fmt = "<4I" if little else ">4I"
while p + 16 <= len(d):
    h, t, w0, w1 = struct.unpack_from(fmt, d, p)
    cls, ev, cpu = (h >> 10) & 0x1f, h & 0x3ff, (h >> 24) & 0x3f
    if cls == 1 and ev == 1:
        high[cpu] = w0
    if ev == 0x205 and cls == 5 and h >> 30 == 1 and (w1 & 0xf) in (1, 2):
        n += 1
        if times:
            c = high.get(cpu, 0) << 32 | t
            print(cpu, c // hz * 1000000000 + c % hz * 1000000000 // hz)
    p += 16
if not times:
    print(n)
