#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Makes a capture of this kernel read as a QNX system's: its system page's board record
# (KEV_SP_BOARD, trace/include/trace/kev_file.h) gets a record type no reader knows, which
# readers skip, so that the decoder names kernel-call words by QNX's layouts
# (trace/kev_kercall.c) instead of this kernel's. Everything else is byte for byte the same.
# usage: kev_as_qnx.py IN.kev OUT.kev
import struct
import sys

data = bytearray(open(sys.argv[1], "rb").read())
SP_BOARD, UNKNOWN = 1, 0x7fff
done = 0
for at in range(0, len(data) - 12):  # (the page follows a text header: any alignment)
    rh = struct.unpack_from("<I", data, at)[0]
    typ, plen = rh >> 16, rh & 0xFFFF
    if typ != SP_BOARD or plen < 9 or plen > 64 or at + 4 + plen > len(data):
        continue
    name = data[at + 12:at + 4 + plen].split(b"\x00")[0]
    hz, ncpu = struct.unpack_from("<II", data, at + 4)
    if name and name.isascii() and 0 < ncpu <= 64 and hz > 0 and len(name) + 9 <= plen:
        struct.pack_into("<I", data, at, UNKNOWN << 16 | plen)
        done += 1
        break
if not done:
    sys.exit("kev_as_qnx.py: %s: no board record found (not a capture of this kernel?)" % sys.argv[1])
open(sys.argv[2], "wb").write(data)
