#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Our traceprinter prints what QNX's own traceprinter prints. golden/qnx-*.txt are the event
# lines of QNX's real traceprinter (built from its published source by ../shared/qnx-tools,
# which cannot run here) on kevgen traces, reduced by qnx_lines.py; this test regenerates the
# same traces and requires our lines to be identical. To refresh after a deliberate change,
# rerun QNX's printer (qnx-tools/check.sh) and review the diff: never copy our own output in.
# Also: a big-endian trace prints the same lines (string words aside, whose raw hex QNX shows
# unswapped), recorded + lost == generated, and the layout facts the goldens rely on.
# usage: test_qnx_golden.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/qnx)
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=${1:-build/host}
dir=${2:-build/host-test/qnx}
mkdir -p "$dir"
. "$here/../../test/tools/tap.sh"     # ok, notok: the kevconv tests' TAP
lines() { "$bin/traceprinter" -n "$1" | python3 "$here/qnx_lines.py"; }

golden() { # golden NAME KEVGEN-ARGS...
    local name=$1; shift
    "$bin/kevgen" "$@" -o "$dir/$name.kev" >/dev/null || { notok "$name: kevgen $*"; return; }
    lines "$dir/$name.kev" >"$dir/$name.txt"
    if diff -q "$here/golden/qnx-$name.txt" "$dir/$name.txt" >/dev/null; then
        ok "$name: every line QNX's traceprinter prints is ours ($(wc -l <"$dir/$name.txt") lines)"
    else
        notok "$name: lines differ from QNX's traceprinter" \
            "$(diff "$here/golden/qnx-$name.txt" "$dir/$name.txt" | head -6)"
    fi
}
# Fast and wide kernel calls with failures (ret_val:-1, errno:N), all classes kevgen makes.
golden le -e -n 1200 -s 5
# Overwrite policy with a logger too slow: loss shows only as buffer sequence gaps there.
golden ow -x overwrite -k 2 -d 0 -n 2500 -s 6

# Big-endian: the same events print the same lines, string fields aside: they show the raw
# bytes, and kevgen's argument words are values, not bytes.
strhex() { sed -E 's/"[^"]*" \(0x[0-9a-fx ]*\)/STR/g'; }
"$bin/kevgen" -e -n 1200 -s 5 -b -o "$dir/be.kev" >/dev/null
if diff -q <(strhex <"$dir/le.txt") <(lines "$dir/be.kev" | strhex) >/dev/null; then
    ok "big-endian file: the same lines"
else
    notok "big-endian file: the same lines" "$(diff <(strhex <"$dir/le.txt") <(lines "$dir/be.kev" | strhex) | head -4)"
fi
be_str=$(od -An -c "$dir/be.kev" | tr -d ' \n' | grep -o 'procnto' | head -1)
[ "$be_str" = procnto ] && ok "big-endian file: names stored as bytes in memory order" ||
    notok "big-endian file: names stored as bytes in memory order" "found '$be_str'"

# Layout facts from QNX's headers and tools, checked on the files themselves.
python3 - "$dir/le.kev" <<'PY' && ok "header items back to back, no newline" || notok "header items back to back, no newline"
import sys
d = open(sys.argv[1], 'rb').read()
end = d.find(b'TRACE_HEADER_END::') + len(b'TRACE_HEADER_END::')
sys.exit(0 if d.startswith(b'TRACE_HEADER_BEGIN::TRACE_') and b'\n' not in d[:end] else 1)
PY
# QNX's system page (sys/syspage.h, 32-bit layout) as its traceparser reads it: size 156,
# total_size, type ARM (4), one CPU, the qtime section's cycles_per_sec equal to the header's,
# cpuinfo's name in the strings section; our record list right after total_size.
for f in le be; do
python3 - "$dir/$f.kev" <<'PY' && ok "$f: QNX system page readable by QNX's rules" || notok "$f: QNX system page readable by QNX's rules"
import re, struct, sys
d = open(sys.argv[1], 'rb').read()
end = d.find(b'TRACE_HEADER_END::') + len(b'TRACE_HEADER_END::')
bo = '>' if b'TRACE_BIG_ENDIAN::' in d[:end] else '<'
splen = int(re.search(rb'SYSPAGE_LEN::(\d+)', d[:end]).group(1))
hz = int(re.search(rb'CYCLES_PER_SEC::(\d+)', d[:end]).group(1))
p = d[end:end + splen]
size, total, typ, ncpu = struct.unpack_from(bo + '4H', p, 0)
ent = [struct.unpack_from(bo + '2H', p, 8 + 4 * i) for i in range(15)]
cpu_off, cpu_size = ent[4]; qt_off, qt_size = ent[6]; st_off, st_size = ent[10]
cps, = struct.unpack_from(bo + 'Q', p, qt_off)
name_ix, = struct.unpack_from(bo + 'H', p, cpu_off + 28)
name = p[st_off + name_ix:].split(b'\0')[0]
blob = (total + 3) & ~3
ok = (size == 156 and total <= splen and typ == 4 and ncpu == 1 and cpu_size == 32 and
      qt_size == 96 and cps == hz and name == b'Cortex-M3' and p[blob:blob + 4] in (b'KYSP', b'PSYK'))
sys.exit(0 if ok else 1)
PY
done
# A board's capture on 4 CPUs (golden/cpuwake-a53.kev.gz: user/apps/cpuwake on qemu-virt-a53
# in exact mode, its condvar calls CondSignal and CondBroadcast on QNX's one number 83): QNX's
# printer read it as written (../shared/qnx-tools scored it 1.000, asis=same), and every line it
# prints is ours; its CondBroadcasts are QNX's SYNC_CONDVAR_SIGNAL with all:1.
gzip -dc "$here/golden/cpuwake-a53.kev.gz" >"$dir/cpuwake.kev"
lines "$dir/cpuwake.kev" >"$dir/cpuwake.txt"
if diff -q <(gzip -dc "$here/golden/qnx-cpuwake-a53.txt.gz") "$dir/cpuwake.txt" >/dev/null; then
    ok "cpuwake on 4 CPUs: every line QNX's traceprinter prints is ours ($(wc -l <"$dir/cpuwake.txt") lines, $(grep -c 'SIGNAL/83 sync_p:0x1 all:1$' "$dir/cpuwake.txt") CondBroadcasts)"
else
    notok "cpuwake on 4 CPUs: lines differ from QNX's traceprinter" \
        "$(diff <(gzip -dc "$here/golden/qnx-cpuwake-a53.txt.gz") "$dir/cpuwake.txt" | head -6)"
fi
# A make live capture (golden/live-a53.kev.gz: the probe path's file of `make live
# RUN_ARGS="appinit deadline"` on qemu-virt-a53's 4 CPUs in exact mode, kevprobe reading the
# guest's RAM): QNX's printer read it as written (../shared/qnx-tools scored it 1.000 over
# 15,215 events, asis=same), and every line it prints is ours.
gzip -dc "$here/golden/live-a53.kev.gz" >"$dir/live.kev"
lines "$dir/live.kev" >"$dir/live.txt"
if diff -q <(gzip -dc "$here/golden/qnx-live-a53.txt.gz") "$dir/live.txt" >/dev/null; then
    ok "a make live file on 4 CPUs: every line QNX's traceprinter prints is ours ($(wc -l <"$dir/live.txt") lines)"
else
    notok "a make live file on 4 CPUs: lines differ from QNX's traceprinter" \
        "$(diff <(gzip -dc "$here/golden/qnx-live-a53.txt.gz") "$dir/live.txt" | head -6)"
fi
grep -q 'KER_CALL:MSG_SENDV/11 ' "$dir/le.txt" && grep -q 'KER_CALL:SYNC_MUTEX_LOCK/80 ' "$dir/le.txt" &&
    ok "kernel calls carry QNX's numbers" || notok "kernel calls carry QNX's numbers"
# Loss shows in QNX's own printer too: the SYSTEM SLOG note after the last buffer (its count is
# the file's lost total), which our readers do not count as an event.
lost=$("$bin/traceprinter" "$dir/ow.kev" | sed -n 's/^lost events: \([0-9]*\).*/\1/p')
grep -q "SYSTEM :SLOG opcode:1 severity:3 message:$lost events lost in this capture" "$dir/ow.txt" &&
    [ "${lost:-0}" -gt 0 ] && ok "loss is shown as QNX's SLOG event ($lost lost)" ||
    notok "loss is shown as QNX's SLOG event" "lost=$lost"
# A file written before the 2026-11 revision of 1.02 (golden/pre-2026-11.kev: our record list
# alone as the system page, made by that day's kevgen) is still read: names from its page,
# every event, recorded + lost == generated (601).
old=$("$bin/traceprinter" "$here/golden/pre-2026-11.kev" 2>&1)
echo "$old" | grep -q '^events: 601 in ' && echo "$old" | grep -q '(server/main)' &&
    ok "a file from before the 2026-11 revision reads as before" ||
    notok "a file from before the 2026-11 revision reads as before" "$(echo "$old" | tail -3)"
grep -q 'ret_val:-1, errno:11$' "$dir/le.txt" && ok "a failed call's exit: ret_val:-1, errno:N" ||
    notok "a failed call's exit: ret_val:-1, errno:N"
# recorded + lost == generated in the lossy case (the trailer's totals, not read by QNX)
gen=$("$bin/kevgen" -x overwrite -k 2 -d 0 -n 2500 -s 6 -o "$dir/ow2.kev" | sed -n 's/^generated \([0-9]*\).*/\1/p')
sum=$("$bin/traceprinter" "$dir/ow2.kev" | sed -n -e 's/^events: \([0-9]*\) in.*/\1/p' -e 's/^lost events: \([0-9]*\).*/\1/p' | awk '{s += $1} END {print s}')
[ -n "$gen" ] && [ "$sum" = "$gen" ] && ok "overwrite: recorded + lost == generated ($sum)" ||
    notok "overwrite: recorded + lost == generated" "sum=$sum generated=$gen"
echo "1..$n"
[ "$fails" = 0 ]
