#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Whether two .kev captures hold the same events, read from the bytes by docs/kev-format.md
# alone (not through trace/): the ASCII header's items must be equal but for the dates and the
# file's name (TRACE_DATE, TRACE_BOOT_DATE, TRACE_FILE_NAME: the host's, from the host), the
# system page as long (its machine entry holds the boot's date), and everything after it, the
# buffers' slots, byte for byte: every event's class, code, time, CPU and payload.
#   kev_same_events.py A.kev B.kev   -> "same: N bytes of events" (status 0), or where they differ
#   kev_same_events.py --cycles-within N A.kev B.kev: the same, but a slot's time (data[0], and
#   CONTROL TIME's 64-bit count) may differ by up to N cycles, and so may a payload word, as a
#   time carried in a payload moves with its event (a timer's due time; a program's own
#   measure of time, in its units): the same events in the same order, each word within N of
#   its counterpart, and how many times and payloads differed, by how much at most
import re, struct, sys

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


args = sys.argv[1:]
within = None
if args[:1] == ["--cycles-within"]:
    within, args = int(args[1]), args[2:]
(ha, sa, ea), (hb, sb, eb) = parts(args[0]), parts(args[1])
if ha != hb:
    diff = [(x, y) for x, y in zip(ha, hb) if x != y]
    print("headers differ: %s" % (diff[:2] or "in their number of items"))
    sys.exit(1)
if sa != sb:
    print("system pages differ in length: %d, %d" % (sa, sb))
    sys.exit(1)
if within is not None and len(ea) == len(eb) and len(ea) % 16 == 0:
    def apart(x, y):
        return min((x - y) % (1 << 32), (y - x) % (1 << 32))
    moved = worst = pmoved = pworst = 0
    for k in range(0, len(ea), 16):
        a, b = struct.unpack_from("<4I", ea, k), struct.unpack_from("<4I", eb, k)
        if a == b:
            continue
        control_time = (a[0] >> 10) & 31 == 1 and a[0] & 1023 == 1
        if control_time:   # data[1], data[2]: the 64-bit cycle count, high then low
            d = abs(((a[2] << 32) | a[3]) - ((b[2] << 32) | b[3]))
            p = 0
        else:
            d = apart(a[1], b[1])
            p = max(apart(a[2], b[2]), apart(a[3], b[3]))
        if a[0] != b[0] or d > within or p > within:
            why = "header" if a[0] != b[0] else "time %d apart" % d if d > within else \
                "payload %d apart" % p
            print("events differ at slot %d of %d beyond %d cycles apart (%s)"
                  % (k // 16, len(ea) // 16, within, why))
            sys.exit(1)
        moved += d != 0
        worst = max(worst, d)
        pmoved += p != 0
        pworst = max(pworst, p)
    print("same: %d slots of events, %d times moved, at most %d cycles; %d payloads, at most %d"
          % (len(ea) // 16, moved, worst, pmoved, pworst))
    sys.exit(0)
if ea != eb:
    n = next((i for i in range(min(len(ea), len(eb))) if ea[i] != eb[i]), min(len(ea), len(eb)))
    print("events differ from byte %d of %d / %d (slot %d)" % (n, len(ea), len(eb), n // 16))
    sys.exit(1)
print("same: %d bytes of events" % len(ea))
