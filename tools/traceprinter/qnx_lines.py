#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reduce a traceprinter output (ours or QNX's, run with -n) to the event lines both tools must
print identically: one event a line (QNX's printer ends a failed call's exit line without a
newline: split there), whitespace collapsed, our appended extras (" (proc/thread)") dropped,
and the lines left out that are not QNX's to print the same: our own events (BUFFER_END,
DROPPED, SYSTEM TIMER/SNAPSHOT and the SYSTEM events QNX's printer prints nothing for: ONCPU,
SURRENDER, REMAIN_CPU, STEAL, SYNC_WAIT, IMAGE, PRIO_CHANGE; WAITCHILD of older files, kernel calls on
QNX's SPARE numbers). Usage: qnx_lines.py < printer-output > lines"""
import re
import sys

EV = re.compile(r't:0x[0-9a-f]{8} CPU:\d\d ')
SKIP = re.compile(r'CONTROL ?: ?(BUFFER_END|DROPPED)\b|'
                  r'SYSTEM ?:(TIMER|SNAPSHOT|ONCPU|SURRENDER|REMAIN_CPU|STEAL|SYNC_WAIT|IMAGE|PRIO_CHANGE)\b|'
                  r'THWAITCHILD|SPARE\d/|KER_(CALL|EXIT):[A-Z][A-Za-z]*[a-z]')
EXTRA = re.compile(r' \([A-Za-z_][^()]*\)$')

text = sys.stdin.read()
text = EV.sub(lambda m: '\n' + m.group(0), text)
for line in text.split('\n'):
    line = ' '.join(line.split())
    if not EV.match(line + ' ') or SKIP.search(line):
        continue
    print(EXTRA.sub('', line))
