#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A traced program names itself and its threads as it likes (ThreadName): with terminal
# control sequences that would clear the screen or retitle the window, CSI as a C1 control
# (UTF-8 c2 9b, or a lone 9b), CR, BEL, a newline. Every host tool that prints names must
# print them escaped as the console does (kernel/kconsole.c: \e, \r, \xNN) and keep ordinary
# UTF-8 names as they are. The capture is kevscen -N's (the scripted basic scenario, its
# processes so named); the names expected are the ones kevscen wrote, escaped here by the
# console's rules (not by the tools' code), and check_safe_text.py reads each output as a
# terminal would.
# usage: test_hostile_names.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevconv)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch names "${2:-build/host-test/kevconv}"
need python3

"$bin/kevscen" -N basic "$dir/h.kev" >/dev/null || { notok "kevscen -N writes the capture"; finish; exit; }
# The names kevscen -N gives (tools/kevconv/kevscen.c), escaped by hand.
procs=('cl\e[2Jnt' 'sv\xc2\x9b31m' 'dr\x9b5n\r' 'wörker\x07')
threads=('m\e]0;x\x07' '\x85main' 'irq\x0a' 'задача')

safe() { # safe NAME FILE: FILE holds nothing a terminal obeys
    if python3 "$here/check_safe_text.py" "$2" >"$dir/safe.txt"; then ok "$1: no control byte, valid UTF-8"
    else notok "$1: no control byte, valid UTF-8" "$(cat "$dir/safe.txt")"; fi
}
has_all() { # has_all NAME FILE PREFIX STRING...: every PREFIX+STRING occurs in FILE as it is
    local name=$1 file=$2 pre=$3 miss=; shift 3
    for s in "$@"; do grep -qF -- "$pre$s" "$file" || miss="$miss $pre$s"; done
    if [ -z "$miss" ]; then ok "$name"; else notok "$name" "missing:$miss"; fi
}

"$bin/traceprinter" "$dir/h.kev" >"$dir/tp.txt"
safe "traceprinter" "$dir/tp.txt"
has_all "traceprinter: PROCCREATE_NAME/PROCTHREAD_NAME names escaped, UTF-8 kept" "$dir/tp.txt" \
    name: "${procs[@]}" "${threads[@]}"
# QNX's layout for ordinary names: "... pid:1 tid:1 name:idle", nothing added.
grep -qE '^t:0x[0-9a-f]{8} CPU:00 PROCESS :PROCTHREAD_NAME  pid:1 tid:1 name:idle$' "$dir/tp.txt"
check "traceprinter: an ordinary name in QNX's layout" test $? = 0
# The header's values are the file's bytes too: a capture whose file name clears the screen
# (the same length, put in place here) prints escaped.
python3 - "$dir/h.kev" "$dir/hdr.kev" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
open(sys.argv[2], 'wb').write(d.replace(b'::scenario.kev', b'::sc\x1b[2Jio.kev', 1))
PY
"$bin/traceprinter" "$dir/hdr.kev" >"$dir/tph.txt"
safe "traceprinter: header" "$dir/tph.txt"
has_all "traceprinter: a header value escaped" "$dir/tph.txt" "" 'TRACE_FILE_NAME:: sc\e[2Jio.kev'
"$bin/traceprinter" -m "$dir/h.kev" >"$dir/tpm.txt"
safe "traceprinter -m" "$dir/tpm.txt"
grep -q ' (cl\\e\[2Jnt/m\\e\]0;x\\x07)$' "$dir/tpm.txt"
check "traceprinter: a thread's (process/thread) names after its events, escaped" test $? = 0

"$bin/kevstat" "$dir/h.kev" >"$dir/stat.txt"
safe "kevstat" "$dir/stat.txt"
has_all "kevstat: process/thread labels escaped, UTF-8 kept" "$dir/stat.txt" "" \
    "${procs[0]}/${threads[0]}" "${procs[1]}/${threads[1]}" "${procs[2]}/${threads[2]}" \
    "${procs[3]}/${threads[3]}"
# Its name columns are padded by characters, as a terminal shows them: in the thread and
# process tables every row's time ends in the same column, the UTF-8 names' rows too (Python
# counts the characters).
python3 - "$dir/stat.txt" >"$dir/cols.txt" 2>&1 <<'PY'
import re, sys
ends, rows = set(), 0
for line in open(sys.argv[1], encoding='utf-8'):
    if line.startswith('  priority'):
        break
    m = re.match(r'  (\S.*?) +(\d+\.\d{3})\b', line)
    if m and len(m.group(1)) <= 32:
        ends.add(m.end(2))
        rows += 1
print('# %d rows, time columns ending at %s' % (rows, sorted(ends)))
sys.exit(0 if rows >= 10 and len(ends) == 1 else 1)
PY
check "kevstat: name columns padded by characters (UTF-8 names aligned)" test $? = 0 || cat "$dir/cols.txt"

"$bin/dtrace" -q -i "$dir/h.kev" -n 'sched:::on-cpu /pid > 1/ { @[execname] = count(); }' \
    -n 'END { printa("<%s>\n", @); }' >"$dir/d.txt" 2>&1
safe "dtrace -i: execname" "$dir/d.txt"
has_all "dtrace -i: execname escaped, UTF-8 kept" "$dir/d.txt" "<" "${procs[@]/%/>}"

# Files for other programs: JSON keeps the names (escaped once more by JSON's own rules),
# the report page carries no control byte either.
"$bin/kev2json" "$dir/h.kev" -o "$dir/h.json" >/dev/null 2>&1
python3 - "$dir/h.json" "${procs[@]}" "${threads[@]}" >"$dir/json.txt" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding='utf-8'))
# Perfetto's metadata: process_name the process's, thread_name "process/thread"
meta = {(e['name'], e['args']['name']) for e in d['traceEvents'] if e.get('ph') == 'M'}
procs, threads = sys.argv[2:6], sys.argv[6:10]
want = [('process_name', p) for p in procs] + \
       [('thread_name', p + '/' + t) for p, t in zip(procs, threads)]
missing = [w for w in want if w not in meta]
print('# missing: %r' % missing if missing else '')
sys.exit(1 if missing else 0)
PY
check "kev2json: valid JSON, names escaped, UTF-8 kept" test $? = 0
"$bin/kevreport" -o "$dir/h.html" "$dir/h.kev" >/dev/null 2>&1
safe "kevreport page" "$dir/h.html"
finish
