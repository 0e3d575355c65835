#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeds for fuzz_lv_protocol: command sequences of LTTng's live viewer protocol (lttng-tools'
doc/live-reading-protocol.md, lttng-viewer-abi.h: big-endian; a command is u64 data_size,
u32 cmd, u32 version, then its data), written from the documents. Each seed is the bytes two
viewers send (the target splits the input in halves).
usage: lv_seeds.py DIR"""
import os
import struct
import sys

CONNECT, LIST, ATTACH, NEXT_INDEX, GET_PACKET, GET_METADATA, GET_NEW_STREAMS, CREATE, DETACH = \
    1, 2, 3, 4, 5, 6, 7, 8, 9


def cmd(c, data=b""):
    return struct.pack(">QII", len(data), c, 0) + data


def hello():
    return cmd(CONNECT, struct.pack(">QIII", 2**64 - 1, 2, 4, 1))


def main(d):
    os.makedirs(d, exist_ok=True)
    attach = cmd(ATTACH, struct.pack(">QQI", 1, 0, 1))
    reads = b"".join(cmd(GET_METADATA, struct.pack(">Q", sid)) for sid in (2, 5)) + \
        b"".join(cmd(NEXT_INDEX, struct.pack(">Q", sid)) for sid in (3, 4, 3, 4)) + \
        b"".join(cmd(GET_PACKET, struct.pack(">QQI", sid, 0, 256)) for sid in (3, 4))
    seeds = {
        "list": hello() + cmd(LIST),
        "attach": hello() + cmd(CREATE) + cmd(LIST) + attach + reads,
        "two": (hello() + cmd(CREATE) + attach + reads) * 2,
        "detach": hello() + cmd(CREATE) + attach + cmd(GET_NEW_STREAMS, struct.pack(">Q", 1)) +
        cmd(DETACH, struct.pack(">Q", 1)),
        "half": hello()[:10],
        "garbage": b"GET / HTTP/1.0\r\n\r\n" + hello(),
    }
    for name, b in seeds.items():
        open(os.path.join(d, name), "wb").write(b)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
