#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Whether two .kev captures hold the same events, read from the bytes by docs/kev-format.md
# alone (not through trace/): the ASCII header's items must be equal but for the dates and the
# file's name (TRACE_DATE, TRACE_BOOT_DATE, TRACE_FILE_NAME: the host's, from the host), the
# system page as long (its machine entry holds the boot's date), and everything after it, the
# buffers' slots, byte for byte: every event's class, code, time, CPU and payload.
#   kev_same_events.py A.kev B.kev   -> "same: N bytes of events" (status 0), or where they differ
import re, sys

HOST_LINES = ("TRACE_DATE::", "TRACE_BOOT_DATE::", "TRACE_FILE_NAME::")


def parts(path):
    d = open(path, "rb").read()
    end = d.index(b"TRACE_HEADER_END::") + len(b"TRACE_HEADER_END::")
    head = d[:end].decode("latin-1")
    syslen = int(re.search(r"TRACE_SYSPAGE_LEN::(\d+)", head).group(1))
    if "TRACE_VER_MINOR::01" in head and d[end:end + 1] == b"\n":
        end += 1
    # items follow one another, each "TRACE_KEY::value" (a value holds no "TRACE_")
    lines = [l for l in re.split(r"(?=TRACE_)", head) if l and not l.startswith(HOST_LINES)]
    return lines, syslen, d[end + syslen:]


(ha, sa, ea), (hb, sb, eb) = parts(sys.argv[1]), parts(sys.argv[2])
if ha != hb:
    diff = [(x, y) for x, y in zip(ha, hb) if x != y]
    print("headers differ: %s" % (diff[:2] or "in their number of items"))
    sys.exit(1)
if sa != sb:
    print("system pages differ in length: %d, %d" % (sa, sb))
    sys.exit(1)
if ea != eb:
    n = next((i for i in range(min(len(ea), len(eb))) if ea[i] != eb[i]), min(len(ea), len(eb)))
    print("events differ from byte %d of %d / %d (slot %d)" % (n, len(ea), len(eb), n // 16))
    sys.exit(1)
print("same: %d bytes of events" % len(ea))
