#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An independent count of a .kev capture's stack samples, read from the bytes by
# docs/kev-format.md alone (not through trace/): after the ASCII header and SYSPAGE_LEN bytes
# of system page come 16-byte slots [header, t, data1, data2]; header bits 0-9 event, 10-14
# class, 30-31 slot type (1: a combine event's first slot, whose data1/data2 are its first
# two payload words). A SYSTEM (5) STACK (0x205) whose info word (payload word 1) has kind
# 1 (user) or 2 (kernel) in bits 0-3 is a sample (docs/trace-events.md).
#   kev_count_stacks.py FILE.kev   -> prints the number of samples
import re, struct, sys

d = open(sys.argv[1], "rb").read()
end = d.index(b"TRACE_HEADER_END::") + len(b"TRACE_HEADER_END::")
head = d[:end].decode("latin-1")
little = "TRACE_LITTLE_ENDIAN::TRUE" in head
syslen = int(re.search(r"TRACE_SYSPAGE_LEN::(\d+)", head).group(1))
if "TRACE_VER_MINOR::01" in head and d[end:end + 1] == b"\n":
    end += 1
p, n = end + syslen, 0
fmt = "<4I" if little else ">4I"
while p + 16 <= len(d):
    h, _, w0, w1 = struct.unpack_from(fmt, d, p)
    if (h & 0x3ff) == 0x205 and (h >> 10) & 0x1f == 5 and h >> 30 == 1 and (w1 & 0xf) in (1, 2):
        n += 1
    p += 16
print(n)
