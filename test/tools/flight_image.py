# SPDX-License-Identifier: MIT
# A halted target's memory as kevdump reads it (trace/include/trace/kev_flight.h): the kernel's
# flight-recorder map, the CPUs-online count, the ring's control structure (its buffers'
# memory and count, each CPU's words, the buffers' table) and the buffers, here those of a
# kevgen capture (the real ring and writer), all FULL. One contiguous image from BASE, the map
# first, so that the same bytes serve the map test's GDB server and the fuzzer's seeds
# (test/fuzz/fuzz_kevdump.c reads its input as memory from BASE). One copy of the layout for
# both.
import struct

BASE = 0x20000000
NCPUS_AT, RING_AT, MEM_AT = 0x80, 0x100, 0x1000     # offsets from BASE
BUF_BYTES = 16384
MAGIC = b"KEVFLT1\0"
# The map's 20 u32s, in the header's order, as a 32-bit kernel lays out its ring.
FIELDS = ["version", "ptr_bytes", "max_cpus", "max_bufs", "off_mem", "off_nbufs", "off_policy",
          "off_running", "off_cpu", "off_buf", "cpu_stride", "off_wp", "off_cur", "off_recorded",
          "off_dropped", "off_overwritten", "buf_stride", "off_seq", "off_state", "off_nslots"]


def layout(ptr=4, max_cpus=2, max_bufs=8):
    """The map's u32 fields for a target of `ptr`-byte pointers (a dict by name)."""
    f = dict(version=1, ptr_bytes=ptr, max_cpus=max_cpus, max_bufs=max_bufs, off_mem=0,
             off_nbufs=ptr, off_policy=ptr + 4, off_running=ptr + 8, off_cpu=32, cpu_stride=64,
             off_wp=0, off_cur=24, off_recorded=32, off_dropped=40, off_overwritten=48,
             buf_stride=16, off_seq=0, off_state=4, off_nslots=12)
    f["off_buf"] = 32 + max_cpus * 64
    return f


def map_bytes(f, ring=BASE + RING_AT, ncpus_addr=BASE + NCPUS_AT):
    """The map as the kernel's image holds it: magic, the u32s, the two addresses."""
    p = "<Q" if f["ptr_bytes"] == 8 else "<I"
    return (MAGIC + struct.pack("<20I", *[f[k] & 0xffffffff for k in FIELDS]) +
            struct.pack(p, ring) + struct.pack(p, ncpus_addr))


def image(bufs, f=None, dropped=0, overwritten=0, open_last=False):
    """The memory from BASE: the map, the count (1 CPU), the ring and the buffers `bufs` (each
    a buffer's slots from its BUFFER to its BUFFER_END), every buffer FULL, or the last one
    CPU 0's open buffer (FILLING, its write pointer at its BUFFER_END's slot)."""
    f = f or layout(max_bufs=max(8, len(bufs)))
    ptr = f["ptr_bytes"]
    mem = bytearray(MEM_AT + BUF_BYTES * len(bufs))
    m = map_bytes(f)
    mem[0:len(m)] = m
    struct.pack_into("<I", mem, NCPUS_AT, 1)
    r = RING_AT
    struct.pack_into("<Q" if ptr == 8 else "<I", mem, r + f["off_mem"], BASE + MEM_AT)
    struct.pack_into("<I", mem, r + f["off_nbufs"], len(bufs))
    cpu = r + f["off_cpu"]
    struct.pack_into("<i", mem, cpu + f["off_cur"], -1)
    struct.pack_into("<QQ", mem, cpu + f["off_dropped"], dropped, overwritten)
    for i, b in enumerate(bufs):
        mem[MEM_AT + BUF_BYTES * i:MEM_AT + BUF_BYTES * i + len(b)] = b
        seq = struct.unpack_from("<I", b, 8)[0]
        e = r + f["off_buf"] + f["buf_stride"] * i
        struct.pack_into("<I", mem, e + f["off_seq"], seq)
        mem[e + f["off_state"]] = 2
        struct.pack_into("<H", mem, e + f["off_nslots"], len(b) // 16)
    if open_last:
        i = len(bufs) - 1
        mem[r + f["off_buf"] + f["buf_stride"] * i + f["off_state"]] = 1
        struct.pack_into("<i", mem, cpu + f["off_cur"], i)
        wp = BASE + MEM_AT + BUF_BYTES * i + len(bufs[i]) - 16
        struct.pack_into("<Q" if ptr == 8 else "<I", mem, cpu + f["off_wp"], wp)
    return mem


if __name__ == "__main__":
    # flight_image.py HOST_DIR OUT_DIR: fuzz_kevdump's seeds (a small kevgen capture's image
    # with 32-bit pointers, its last buffer open, and with 64-bit pointers)
    import os
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from probe_block import kevgen
    bufs = kevgen(sys.argv[1], 1500)[3][:2]
    for name, mem in [("full", image(bufs)), ("open", image(bufs, open_last=True, dropped=3)),
                      ("ptr8", image(bufs, f=layout(ptr=8)))]:
        with open(os.path.join(sys.argv[2], name), "wb") as out:
            out.write(mem)
