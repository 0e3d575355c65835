#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# check_safe_text.py OUTPUT: a tool's output, read as bytes, holds nothing a terminal obeys:
# no C0 control but tab and newline, no DEL, no C1 control (U+0080-U+009F, e.g. CSI as c2 9b),
# no byte outside well-formed UTF-8 (a lone 0x9b is CSI to an 8-bit terminal). Prints what it
# found and where; exit 1 if anything. The rules are the console's (kernel/kconsole.c), written
# here again from the terminal's side, independently of trace/kev_text.c.
import sys

data = open(sys.argv[1], 'rb').read()
bad = []
try:
    text = data.decode('utf-8', errors='strict')
except UnicodeDecodeError as e:
    bad.append('not UTF-8 at byte %d: %r' % (e.start, data[max(0, e.start - 12):e.start + 4]))
    text = data.decode('utf-8', errors='replace')
for i, ch in enumerate(text):
    c = ord(ch)
    if (c < 0x20 and ch not in '\t\n') or 0x7f <= c <= 0x9f:
        bad.append('control U+%04X in %r' % (c, text[max(0, i - 12):i + 4]))
for b in bad[:5]:
    print('# ' + b)
sys.exit(1 if bad else 0)
