#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The kernel's own count of the events it dropped, read where a probe reads it: the probe block
# (trace/kev_probe.h) in the guest RAM QEMU shares as a file, each CPU's tc_dropped at the
# block's pb_cpus + cpu * pb_cpu_stride + pb_off_dropped. A test that pauses its reader waits
# on it for the board to have lost events. Prints the sum, or nothing while the block is not
# published yet.
#   test/tools/probe_drops.py RAM_FILE BASE BLOCK_ADDRESS
import os
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_block import FMT  # noqa: E402

if len(sys.argv) != 4 or sys.argv[1] in ("-h", "--help"):
    print("usage: probe_drops.py RAM_FILE BASE BLOCK_ADDRESS\n"
          "Prints the kernel's dropped-event count from the probe block in a guest's RAM file "
          "(its first byte at guest address BASE).")
    sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help") else 2)
path, base, at = sys.argv[1], int(sys.argv[2], 0), int(sys.argv[3], 0)
with open(path, "rb") as f:
    f.seek(at - base)
    b = f.read(struct.calcsize(FMT))
    v = struct.unpack(FMT, b)
    if not v[0].startswith(b"KEV PROBE BLOCK"):
        sys.exit(0)
    cpus, ncpus = v[6], v[15]
    cpu_stride, off_dropped = v[18], v[23]
    total = 0
    for c in range(ncpus):
        f.seek(cpus + c * cpu_stride + off_dropped - base)
        total += struct.unpack("<Q", f.read(8))[0]
print(total)
