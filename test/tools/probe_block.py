# SPDX-License-Identifier: MIT
# The probe block as the tests that play a target write it (trace/include/trace/kev_probe.h):
# its layout, the offsets they change, its check, and a kevgen capture cut into the pieces a
# kernel holds (the header and system page, the buffers). One copy, so that a new version of the
# block is one edit for every such test.
import os
import struct
import subprocess
import tempfile

FMT = "<16sIIQQQQQQQQIIIIIIHHBBBBBBBxIIIIIIIQQ"
assert struct.calcsize(FMT) == 168
CHECK, STATE, NBUFS = 128, 132, 96      # pb_check, pb_state, pb_nbufs
VERSION = 3
# The buffers' table these tests lay out (struct trace_buf's fields where the block says):
# ENTRY bytes an entry, the fields' offsets as the block's pb_buf_stride .. pb_off_lost give them.
ENTRY = 20
LAYOUT = [ENTRY, 64, 0, 4, 5, 12, 40, 48, 16]   # strides, then seq state cpu nslots dropped
                                                # overwritten lost


def table_entry(seq, state, nslots):
    """One entry: its sequence, state and slots (CPU 0, notified, no loss marked)."""
    return struct.pack("<IBBBBIHHI", seq, state, 0, 1, 0, 0, nslots, 3, 0)


def fnv(b):
    """kev_probe_check: FNV-1a over pb_version .. pb_gen."""
    h = 2166136261
    for c in b[16:CHECK]:
        h = ((h ^ c) * 16777619) & 0xffffffff
    return h


def kevgen(host, events):
    """A kevgen file of `events` events on 8 CPUs' worth of buffers: its bytes, the header's
    end (after TRACE_HEADER_END::), the system page's length and the buffers, each from its
    BUFFER to its BUFFER_END."""
    f = os.path.join(tempfile.mkdtemp(), "g.kev")
    subprocess.run([os.path.join(host, "kevgen"), "-n", str(events), "-k", "8", "-o", f],
                   check=True, stdout=subprocess.DEVNULL)
    data = open(f, "rb").read()
    end = data.index(b"TRACE_HEADER_END::") + len(b"TRACE_HEADER_END::")
    page_len = int(data[data.index(b"TRACE_SYSPAGE_LEN::") + 19:].split(b"TRACE_")[0])
    off, bufs = end + page_len, []
    while True:
        h = struct.unpack_from("<I", data, off)[0]
        if (h >> 10) & 0x1f != 1 or h & 0x3ff != 2:     # a CONTROL BUFFER starts each buffer
            break
        k = 0
        while True:
            h = struct.unpack_from("<I", data, off + 16 * k)[0]
            k += 1
            if (h >> 10) & 0x1f == 1 and h & 0x3ff == 4:    # ... and BUFFER_END ends it
                break
        bufs.append(data[off:off + 16 * k])
        off += 16 * k
    return data, end, page_len, bufs
