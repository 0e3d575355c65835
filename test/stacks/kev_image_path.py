#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Rewrites a capture's record of where its kernel image was built, for the symbols tests:
# the name of the kernel's SYSTEM IMAGE event (pid 0; docs/trace-events.md "Images and build
# ids") becomes NEWPATH, so that the host tools look for the capture's ELF files there. Written
# from docs/kev-format.md alone: 16-byte slots [header, time, data1, data2], a combine event's
# payload two words a slot from CB to CE, strings as bytes in memory order (as stored). The
# new path must fit the event's slots (it is NUL-padded); the event keeps its size.
#   kev_image_path.py IN.kev OUT.kev NEWPATH       (prints the path it replaced)
import re
import struct
import sys

src, dst, new = sys.argv[1], sys.argv[2], sys.argv[3].encode()
d = bytearray(open(src, "rb").read())
fmt = ">4I" if b"TRACE_BIG_ENDIAN::" in d[:4096] else "<4I"
# The events start after the header and the system page (SYSPAGE_LEN bytes), a slot each 16
# bytes: only a slot boundary is a header. (The system page holds the boot time in seconds,
# which one second in 32,768 reads as an IMAGE header when scanned byte by byte.)
end = d.find(b"TRACE_HEADER_END::")
page = re.search(rb"TRACE_SYSPAGE_LEN::(\d+)", d[:end])
start = end + len(b"TRACE_HEADER_END::") + (int(page.group(1)) if page else 0)
for off in range(start, len(d) - 15, 16):
    h, _, pid, info = struct.unpack_from(fmt, d, off)
    # a CB slot of SYSTEM (class 5) event 0x208 for pid 0 whose id length is sane
    if h >> 30 != 1 or (h >> 10) & 0x1F != 5 or h & 0x3FF != 0x208 or pid != 0 or info & 0xFF > 32:
        continue
    slots = [off]
    while struct.unpack_from(fmt, d, slots[-1])[0] >> 30 != 3:
        slots.append(slots[-1] + 16)
        if slots[-1] + 16 > len(d) or struct.unpack_from(fmt, d, slots[-1])[0] & 0xFFFF == 0:
            sys.exit("kev_image_path.py: the IMAGE event does not end")
    payload = bytearray(b"".join(d[s + 8:s + 16] for s in slots))
    name_at = 4 * (3 + ((info & 0xFF) + 3) // 4)
    old = bytes(payload[name_at:]).split(b"\0")[0]
    if len(new) + 1 > len(payload) - name_at:
        sys.exit("kev_image_path.py: %s is longer than the %d bytes the event holds"
                 % (new.decode(), len(payload) - name_at - 1))
    payload[name_at:] = new + b"\0" * (len(payload) - name_at - len(new))
    for i, s in enumerate(slots):
        d[s + 8:s + 16] = payload[8 * i:8 * i + 8]
    open(dst, "wb").write(d)
    print(old.decode())
    sys.exit(0)
sys.exit("kev_image_path.py: no IMAGE event of the kernel in %s" % src)
