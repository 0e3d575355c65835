# SPDX-License-Identifier: MIT
# The events of a capture as `traceprinter -m` prints them (one line each, the CPUs merged in
# time order: "t:0x... CPU:nn CLASS :EVENT  words..."), for the checkers that hold a capture to
# an outside truth (ipi_wake_check.py, thread_states_check.py). Lines of another shape (the
# header, the system page) are skipped.
import re

_line = re.compile(r'^t:0x([0-9a-f]+) CPU:(\d+) (\S+)\s*:(\S+)\s+(.*)$')
_who = re.compile(r'pid:(\d+) tid:(\d+)')


def events(path):
    """(n, time, cpu, class, event, rest) for each event line; n counts from 1."""
    n = 0
    with open(path, errors='replace') as f:
        for raw in f:
            m = _line.match(raw.rstrip('\n'))
            if m:
                n += 1
                yield n, int(m.group(1), 16), int(m.group(2)), m.group(3), m.group(4), m.group(5)


def who(rest):
    """(pid, tid) a THREAD event names, or None."""
    m = _who.search(rest)
    return (int(m.group(1)), int(m.group(2))) if m else None
