#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A faulting program's capture names its fault, pc and stack (docs/trace-events.md "Stacks and
# faults"). user/apps/stackfault calls main -> fault_a -> fault_b -> fault_c, which stores to
# the kernel's RAM (the board's BOARD_KERNEL_RAM_ADDR); it runs under the board's dtrace
# (proc:::fault { ustack(); }) with the tracelogger capturing. The oracles: the program's
# source (the faulting function, the address it writes, a write the MPU/MMU refuses:
# SIGSEGV, kind access) and binutils' addr2line on its ELF for the FAULT's pc and for each
# frame of the STACK that follows it (callers at their return address - 1); and the board's
# own proc:::fault, whose ustack( ) dtrace -i over the capture must repeat exactly.
#   test/stacks/test_fault_capture.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
# The fault is also QNX's COMM SIGNAL [si_signo, si_code] just before the FAULT, as QNX's kernel
# records a signal, checked against the program's source (SIGSEGV, SEGV_ACCERR: the MPU/MMU
# refused the write) and, where QNX_TRACEPRINTER names one, QNX's own traceprinter.
# Registered for mps2-an385, qemu-virt-a53 and x86-pc (there the capture comes through UART 1
# and kevcapture; programs are built so that GCC's local leaf functions keep their frame
# record, docs/profiling.md).
# Symbols without a pipe (docs/symbols.md), over the same capture: its IMAGE events
# carry the build ids readelf -n reads from the build's ELF files; dtrace -i names the fault's
# frames itself as stacksym names the board's own output, with addr2line's functions; kev2ctf
# (babeltrace2), kev2json and kev2perfetto (trace processor's rules) give the fault its fields
# and its function and frames by name; a stackfault.elf relinked since (another build id)
# where the capture's build directory is, is refused by every tool with a message and its
# addresses stay raw; the right file found under --symbols DIR laid out as perf's build-id
# cache or debuginfod's names them again; kevstat -s faults names the pc's function and line
# (addr2line's) and the frames, and kevreport's page, in Chromium, has the fault as a finding
# with its stack and a marker on the faulting thread's row.
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/stacks/stacks_lib.sh"
board=$(basename "$B")
img=$B/stackfault.elf
elf=$B/stackfault/stackfault.elf
a2l=$(addr2line_of "$elf")
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..19"
D='proc:::fault { printf("fault %d\n", arg0); ustack(); }'
"$H/dcompile" -n "$D" -o "$tmp/f.dobj" || { echo "not ok 1 - dcompile"; exit 1; }
if uart_board "$board"; then   # the program's text on the board, the capture from UART 1
    QEMU_ARGS="dtrace -c appinit -n '$D' ;; appinit stackfault ;; tracelogger -d1" QEMU_UART1=$tmp/cap.uart \
        QEMU_TIMEOUT=120 "$here/scripts/qemu-run.sh" "$img" > "$tmp/run.out" 2>&1
    rc=$?
    "$H/kevcapture" -q -o "$tmp/cap.kev" "$tmp/cap.uart" || rc=1
else                            # the tracelogger writes cap.kev where QEMU runs (semihosting)
    (cd "$tmp" && QEMU_ARGS="dtrace -c appinit $tmp/f.dobj ;; appinit stackfault ;; tracelogger -d1 -f cap.kev" \
        QEMU_TIMEOUT=120 "$here/scripts/qemu-run.sh" "$img" > "$tmp/run.out" 2>&1)
    rc=$?
fi
[ $rc = 0 ] && [ -s "$tmp/cap.kev" ]
ok $? "the image ran to its end and the tracelogger wrote the capture (status $rc)"
[ $rc = 0 ] || sed 's/^/# /' "$tmp/run.out" | tail -20

"$H/traceprinter" -n "$tmp/cap.kev" > "$tmp/cap.txt" 2>&1
fault=$(grep 'SYSTEM  :FAULT .*(stackfault/main)$' "$tmp/cap.txt")
addr=$(sed -n 's/^#define BOARD_KERNEL_RAM_ADDR *\(0x[0-9a-fA-F]*\)u.*/\1/p' "$here/boards/$board/board_user.h")
want="SIGSEGV access pc 0x[0-9a-f]* addr $(printf '0x%x' "$addr")"
[ "$(grep -c . <<< "$fault")" = 1 ] && grep -q " $want " <<< "$fault"
ok $? "one FAULT event of stackfault: SIGSEGV, a refused access at the address it writes ($addr)"
[ -n "$fault" ] || grep 'SYSTEM' "$tmp/cap.txt" | sed 's/^/# /' | head

pc=$(sed -n 's/.* pc \(0x[0-9a-f]*\) .*/\1/p' <<< "$fault")
fn=$("$a2l" -f -e "$elf" "${pc:-0}" | head -1)
[ "$fn" = fault_c ]
ok $? "the FAULT's pc ($pc) is in fault_c by addr2line ($fn)"

# the STACK right after it: the faulting thread's, kind fault, gdb's order of frames
stack=$(grep -A1 'SYSTEM  :FAULT .*(stackfault/main)$' "$tmp/cap.txt" | sed -n 2p)
pcs=$(sed -n 's/.*SYSTEM  :STACK .* fault depth [0-9]* \(0x.*\) (stackfault\/main)$/\1/p' <<< "$stack")
names=""
k=0
for p in $pcs; do
    [ $k = 0 ] && a=$p || a=$(printf '0x%x' $((p - 1)))
    names="$names $("$a2l" -f -e "$elf" "$a" | head -1)"
    k=$((k + 1))
done
echo "# STACK: $pcs ->$names"
case "$names" in " fault_c fault_b fault_a main"*) r=0 ;; *) r=1 ;; esac
[ $r = 0 ] && [ "${pcs%% *}" = "$pc" ]
ok $? "the STACK that follows it starts at the pc and names fault_c fault_b fault_a main by addr2line"

# kevstat's faults section: the same fault, the function and line holding its pc (addr2line's),
# and the stack's frames named, one a line as dtrace prints a stack (addr2line's functions)
"$H/kevstat" -s faults "$tmp/cap.kev" > "$tmp/kevstat.txt" 2> "$tmp/kevstat.err"
knames=$(awk '/stackfault [0-9]+\/1 SIGSEGV/ { on = 1; next } on && /^              [^ ]/ { print }' "$tmp/kevstat.txt" | stack_names | tr '\n' ' ')
kline=$(sed -n 's/^    in [^`]*`\([^+ ]*\)[^ ]* \[\(.*\)\]$/\1 \2/p' "$tmp/kevstat.txt")
aline=$("$a2l" -f -e "$elf" "$pc" | sed -n '1h; 2{s/.*\///; s/ .*//; H; x; s/\n/ /p}')
grep -q "stackfault [0-9]*/1 $want" "$tmp/kevstat.txt" && [ " $knames" = "$names " ] &&
    [ -n "$kline" ] && [ "$kline" = "$aline" ] && [ ! -s "$tmp/kevstat.err" ]
ok $? "kevstat -s faults lists the fault in $aline (addr2line's) and its stack by name"
[ " $knames" = "$names " ] && [ "$kline" = "$aline" ] || { echo "# want$names, $aline"; sed 's/^/# /' "$tmp/kevstat.txt" "$tmp/kevstat.err"; }

# the board's proc:::fault, and dtrace -i's over the capture: the same line and frames
con_of dtrace < "$tmp/run.out" | awk '/fault [0-9]+$/ { on = 1; print "fault", $NF; next }
    on && /^ +0x[0-9a-f]+$/ { print $1 }' > "$tmp/live.txt"
"$H/dtrace" -q -i "$tmp/cap.kev" --no-symbols -n "$D" 2> "$tmp/cap.err" |
    awk '/fault [0-9]+$/ { on = 1; print "fault", $NF; next } on && /^ +0x[0-9a-f]+$/ { print $1 }' > "$tmp/rep.txt"
[ "$(head -1 "$tmp/live.txt")" = "fault 11" ]
ok $? "the board's proc:::fault fired with SIGSEGV (11) and $(($(wc -l < "$tmp/live.txt") - 1)) frames"
[ -s "$tmp/rep.txt" ] && diff "$tmp/live.txt" "$tmp/rep.txt" > "$tmp/d.diff"
ok $? "dtrace -i fires proc:::fault over the capture with the board's signal and ustack( )"
[ -s "$tmp/d.diff" ] && sed 's/^/# /' "$tmp/d.diff"
# a damaged STACK (depth 33, over the kernel's bound): dtrace -i says so and fires
# proc:::fault without a stack; traceprinter prints the raw words and reads on
python3 - "$tmp/cap.kev" "$tmp/bad.kev" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
fmt = '>4I' if b'TRACE_BIG_ENDIAN::' in d[:4096] else '<4I'
for off in range(d.find(b'TRACE_HEADER_END::'), len(d) - 16):
    h, _, _, info = struct.unpack_from(fmt, d, off)
    # the CB slot of a STACK of kind fault: header, time, who, info
    if h >> 30 == 1 and (h >> 10) & 0x1f == 5 and h & 0x3ff == 0x205 and info & 0xf == 3:
        struct.pack_into(fmt[0] + 'I', d, off + 12, (info & ~0xff00) | 33 << 8)
        break
else:
    sys.exit(1)
open(sys.argv[2], 'wb').write(d)
PY
"$H/dtrace" -q -i "$tmp/bad.kev" -n "$D" > "$tmp/bad.out" 2> "$tmp/bad.err"
drc=$?
"$H/traceprinter" "$tmp/bad.kev" > "$tmp/bad.txt" 2>&1
trc=$?
[ $drc = 0 ] && [ $trc = 0 ] && grep -q 'malformed' "$tmp/bad.err" && grep -q '^fault 11$' "$tmp/bad.out" &&
    ! grep -q '^ *0x' "$tmp/bad.out" && grep -q 'THDEAD .*(stackfault/main)' "$tmp/bad.txt"
ok $? "a malformed STACK: dtrace -i says so and fires proc:::fault without it; traceprinter reads on"
[ $drc = 0 ] || sed 's/^/# /' "$tmp/bad.err"
# QNX's own record of it: COMM SIGNAL [si_signo 11, si_code 2 = SEGV_ACCERR] right before the FAULT
sig=$(grep -B1 'SYSTEM  :FAULT .*(stackfault/main)$' "$tmp/cap.txt" | head -1)
r=1
grep -q 'COMM *:SIGNAL *si_signo:11 si_code:2' <<< "$sig" && r=0
if [ $r = 0 ] && [ -n "${QNX_TRACEPRINTER:-}" ] && [ -x "$QNX_TRACEPRINTER" ]; then
    "$QNX_TRACEPRINTER" -f "$tmp/cap.kev" 2>/dev/null | grep -q 'SIGNAL.*si_signo:11 si_code:2' || r=1
fi
also=""
[ -n "${QNX_TRACEPRINTER:-}" ] && also=", in QNX's own traceprinter too"
ok $r "the fault is QNX's COMM SIGNAL (si_signo 11, si_code 2 SEGV_ACCERR) just before the FAULT$also"
[ $r = 0 ] || echo "# before the FAULT: $sig"

# ---- symbols found without help ----------------------------------------------------------
# 10: the capture records each process's program and the kernel's image with its build id:
# readelf's for the build's ELF files, one a process (and the kernel's)
bid() { readelf -n "$1" 2>/dev/null | sed -n 's/ *Build ID: *//p'; }
r=0
nimg=0
while read -r pid id load name; do
    nimg=$((nimg + 1))
    if [ "$pid" = 0 ]; then f=$name; else f=$B/stackfault/$name.elf; fi
    [ "$pid" = 0 ] && [ "$name" != "$img" ] && { echo "# the kernel's image is $name, not $img"; r=1; }
    [ -n "$id" ] && [ "$id" = "$(bid "$f")" ] || { echo "# pid $pid $name: build id $id, readelf: $(bid "$f")"; r=1; }
done < <(sed -n 's/.*SYSTEM  :IMAGE *pid:\([0-9]*\) build_id:\([0-9a-f]*\) load:\(0x[0-9a-f]*\) name:\(.*\)$/\1 \2 \3 \4/p' "$tmp/cap.txt")
nproc=$(grep -c 'PROCCREATE_NAME' "$tmp/cap.txt")
[ $r = 0 ] && [ "$nimg" = $((nproc + 1)) ]
ok $? "IMAGE events: the kernel's and one for each of the $nproc processes, build ids as readelf -n reads them"

# 11: dtrace -i names the fault's frames itself: what the board printed, named by stacksym (the
# console of make dtrace), and each frame's function addr2line's
con_of dtrace < "$tmp/run.out" | awk '/fault [0-9]+$/ { on = 1; print "fault", $NF; next }
    on && /^ +0x[0-9a-f]+$/ { print }' |
    "$H/stacksym" -k "$img" "$B"/stackfault/*.elf | sed 's/^ *//' > "$tmp/live.named"
"$H/dtrace" -q -i "$tmp/cap.kev" -n "$D" 2> "$tmp/named.err" |
    awk '/fault [0-9]+$/ { on = 1; print "fault", $NF; next } on && /^ +[^ ]/ { print }' |
    sed 's/^ *//' > "$tmp/rep.named"
dnames=$(sed 1d "$tmp/rep.named" | stack_names | tr '\n' ' ')
[ -s "$tmp/rep.named" ] && diff "$tmp/live.named" "$tmp/rep.named" > "$tmp/n.diff" &&
    [ " $dnames" = "$names " ] && [ ! -s "$tmp/named.err" ]
ok $? "dtrace -i names proc:::fault's ustack( ) as stacksym names the board's:$names"
[ -s "$tmp/n.diff" ] && sed 's/^/# /' "$tmp/n.diff"
[ -s "$tmp/named.err" ] && sed 's/^/# /' "$tmp/named.err"

# 12: kev2ctf: babeltrace2 shows the fault and its stack as declared events with named fields
"$H/kev2ctf" -o "$tmp/ctf" "$tmp/cap.kev" 2> "$tmp/ctf.err" && babeltrace2 "$tmp/ctf" > "$tmp/ctf.txt" 2>&1
cf=$(grep ' kev_fault: ' "$tmp/ctf.txt")
cs=$(grep ' kev_stack: .*kind = ( "fault"' "$tmp/ctf.txt")
cframes=$(sed -n 's/.*frames = \[ \(.*\) \] }$/\1/p' <<< "$cs" | sed 's/\[[0-9]*\] = //g; s/", "/\n/g; s/"//g' | stack_names | tr '\n' ' ')
grep -q 'signal = ( "SIGSEGV" : container = 11 ), kind = ( "access" : container = 1 )' <<< "$cf" &&
    grep -qi "pc = $pc, addr = $(printf '0x%x' "$addr")," <<< "$cf" &&
    grep -q "function = \"stackfault\`fault_c+0x[0-9a-f]*\"" <<< "$cf" && [ " $cframes" = "$names " ] &&
    ! grep -q 'kev_unknown: .*kev_event = 51[5-9]' "$tmp/ctf.txt"
ok $? "babeltrace2: kev_fault with SIGSEGV, access, the pc, the address and fault_c; kev_stack's frames by name"
[ -n "$cf" ] || sed 's/^/# /' "$tmp/ctf.err"

# 13: kev2json: the fault's record with its fields by name, and the importer's rules
"$H/kev2json" -o "$tmp/j.json" "$tmp/cap.kev" 2> "$tmp/json.err"
nev=$("$H/traceprinter" "$tmp/cap.kev" | sed -n 's/^events: \([0-9]*\).*/\1/p')
python3 - "$tmp/j.json" "$pc" "$addr" "$names" <<'PY' > "$tmp/json.chk"
import json, sys
d = json.load(open(sys.argv[1]))
f = [e for e in d["traceEvents"] if e.get("name") == "fault SIGSEGV"]
a = f[0]["args"] if len(f) == 1 else {}
fr = " ".join(x.split("`")[1].split("+")[0] for x in a.get("frames", []))
ok = (a.get("signal") == "SIGSEGV" and a.get("kind") == "access" and a.get("pc") == sys.argv[2]
      and int(a.get("addr", "0"), 16) == int(sys.argv[3], 0)
      and a.get("function", "").startswith("stackfault`fault_c") and " " + fr + " " == sys.argv[4] + " ")
print("ok" if ok else "bad %s" % a)
PY
grep -q '^ok' "$tmp/json.chk" && python3 "$here/test/tools/check_json.py" "$tmp/j.json" "$nev" 0 > "$tmp/json.tap" &&
    ! grep -q '^not ok' "$tmp/json.tap"
ok $? "kev2json: the fault's signal, kind, pc, address, function and frames by name; the importer's rules"
grep -v '^ok' "$tmp/json.chk" "$tmp/json.tap" | sed 's/^/# /' | head -5

# 14: kev2perfetto: the fault as an instant with args on the faulting thread's track, by trace
# processor's rules for debug annotations
"$H/kev2perfetto" -o "$tmp/p.pftrace" "$tmp/cap.kev" 2> "$tmp/pf.err"
python3 "$here/test/tools/check_perfetto.py" -d "$tmp/p.inst" "$tmp/p.pftrace" > "$tmp/pf.tap"
python3 - "$tmp/p.inst" "$pc" "$addr" "$names" <<'PY' > "$tmp/pf.chk"
import json, sys
f = [x for x in map(json.loads, open(sys.argv[1])) if x["name"] == "fault SIGSEGV"]
a = f[0]["args"] if len(f) == 1 else {}
fr = " ".join(x.split("`")[1].split("+")[0] for x in a.get("stack", "").split("\n") if "`" in x)
ok = (a.get("signal") == "SIGSEGV" and a.get("kind") == "access" and a.get("pc") == int(sys.argv[2], 0)
      and a.get("addr") == int(sys.argv[3], 0) and a.get("function", "").startswith("stackfault`fault_c")
      and " " + fr + " " == sys.argv[4] + " " and f[0]["tid"] % 1000 == 1)
print("ok" if ok else "bad %s" % f)
PY
grep -q '^ok' "$tmp/pf.chk" && ! grep -q '^not ok' "$tmp/pf.tap"
ok $? "kev2perfetto: the fault instant's args (signal, kind, pc, address, function, stack) by trace processor's rules"
grep -v '^ok' "$tmp/pf.chk" "$tmp/pf.tap" | sed 's/^/# /' | head -5

# 15-19 are the host tools' own behaviour, the same whatever board's files they read: they run
# on mps2-an385 (the default board), the others say so and skip them (a relink and a browser
# cost some 40 s a board).
if [ "$board" != mps2-an385 ]; then
    for what in "a relinked stackfault.elf refused" "--symbols DIR in perf's and debuginfod's layouts" \
                "kevreport's fault finding" "kevreport's fault stack" "kevreport's fault marker"; do
        n=$((n + 1)); echo "ok $n - $what # SKIP checked on mps2-an385 (host tools)"
    done
    exit 0
fi

# 15: stackfault.elf relinked since the capture (one symbol more: another build id), where
# the capture's build directory is: every tool refuses it and leaves its addresses raw
mkdir -p "$tmp/k/stackfault"
cp "$img" "$tmp/k/stackfault.elf"
cp "$B"/stackfault/*.elf "$tmp/k/stackfault/"
link=$(cd "$here" && make -s -n V=1 BOARD="$board" -W user/apps/stackfault/stackfault.c \
           "build/$board/stackfault/stackfault.elf" 2>/dev/null |
       grep -- "-o build/$board/stackfault/stackfault.elf " | sed 's/ -Wl,-Map=.*//')
(cd "$here" && eval "${link/-o build\/$board\/stackfault\/stackfault.elf /-Wl,--defsym=__relinked=1 -o $tmp/k/stackfault/stackfault.elf }") 2> "$tmp/relink.err"
old=$(bid "$elf")
new=$(bid "$tmp/k/stackfault/stackfault.elf")
python3 "$here/test/stacks/kev_image_path.py" "$tmp/cap.kev" "$tmp/moved.kev" "$tmp/k/stackfault.elf" > /dev/null
cd "$tmp"   # (no build/ here: the tools' last resort, build/<board>/ under the current directory)
"$H/dtrace" -q -i "$tmp/moved.kev" -n "$D" > "$tmp/moved.out" 2> "$tmp/moved.err"
"$H/kev2json" -o "$tmp/moved.json" "$tmp/moved.kev" 2> "$tmp/mj.err"
"$H/kev2ctf" -o "$tmp/moved.ctf" "$tmp/moved.kev" 2> "$tmp/mc.err"
refused() { grep -q "$tmp/k/stackfault/stackfault.elf is not the stackfault that ran .*build id is $new, the capture's $old.* refused" "$1"; }
raw=$(awk '/^ +0x[0-9a-f]+$/ { printf "%s%s", sep, $1; sep = " " }' "$tmp/moved.out")
[ -n "$new" ] && [ "$new" != "$old" ] && refused "$tmp/moved.err" && refused "$tmp/mj.err" && refused "$tmp/mc.err" &&
    [ "$raw" = "$pcs" ] && grep -q "\"function\":\"$pc\"" "$tmp/moved.json" &&
    babeltrace2 "$tmp/moved.ctf" 2>/dev/null | grep -q "kev_fault: .*function = \"$pc\""
ok $? "a stackfault.elf relinked since (build id ${new:-?}, the capture's $old) is refused by dtrace -i, kev2json and kev2ctf: addresses left raw"
[ -n "$new" ] || sed 's/^/# relink: /' "$tmp/relink.err" | head -3
refused "$tmp/moved.err" || sed 's/^/# /' "$tmp/moved.err" | head -3

# 16: the right file under --symbols DIR, laid out as perf's build-id cache (.build-id/xx/rest,
# a directory holding elf) or as debuginfod's cache (<id>/debuginfo): named again
mkdir -p "$tmp/perf/.build-id/${old:0:2}/${old:2}" "$tmp/dbgi/$old"
cp "$elf" "$tmp/perf/.build-id/${old:0:2}/${old:2}/elf"
cp "$elf" "$tmp/dbgi/$old/debuginfo"
r=0
for dir in perf dbgi; do
    "$H/dtrace" -q -i "$tmp/moved.kev" --symbols "$tmp/$dir" -n "$D" 2> "$tmp/$dir.err" |
        awk '/fault [0-9]+$/ { on = 1; print "fault", $NF; next } on && /^ +[^ ]/ { print }' |
        sed 's/^ *//' > "$tmp/$dir.named"
    diff -q "$tmp/rep.named" "$tmp/$dir.named" > /dev/null && [ ! -s "$tmp/$dir.err" ] || { r=1; echo "# --symbols $dir:"; sed 's/^/#   /' "$tmp/$dir.named" "$tmp/$dir.err" | head -4; }
done
ok $r "--symbols DIR as perf's build-id cache and as debuginfod's cache: the relinked file passed over, the frames named again"

# 17-19: kevreport's finding and marker, in Chromium (the same capture, its own build's files)
"$H/kevreport" -o "$tmp/r.html" "$tmp/cap.kev" > /dev/null 2> "$tmp/report.err"
timeout 120 /usr/bin/python3 "$here/test/tools/test_kevreport_fault.py" "$tmp/r.html" 17 SIGSEGV access "$(printf '0x%x' "$addr")" \
    "$pc" fault_c "${names# }"
exit 0
