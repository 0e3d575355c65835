#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The event table (trace/kev_events.c) against its readers: kevscen's "events" capture holds
# one of every event of the table with values kevscen chose (its expect-* lines, the truth);
# kevtable, traceprinter, babeltrace2 over kev2ctf's output, kev2json, kev2perfetto (its
# protobuf decoded by Debian's protoc with Perfetto's own names and numbers,
# perfetto_subset.proto, and that decode equal to check_perfetto.py's reader's) and kevsql (its
# event and args tables) must each name every event with every field and value
# (check_event_table.py); QNX's interrupted call reads as its call's exit (kev2json's errno 4,
# EINTR, as babeltrace2 reads the CTF). Then the same with a test-only
# row (test/tools/test_event_row.c) linked into test builds of kevscen and the consumers:
# the event no consumer's code knows is named with its fields by each, and the D probe its
# row's D column names, in no probe list, is listed by dtrace -l and fired by dtrace -i with
# its fields as arguments. And the docs: the
# listing docs/event-table.md is kevtable's output and emitgen -l's (each row's generated
# helper, packer and firings by name), and trace-events.md's tables name each event number as
# the table does. And the sources: no reader unpacks a field by hand, no kernel file packs one
# by kev.h's macros, and no hand-written site binds a value by a local's name (KEV_PACK).
# usage: test_event_table.sh [BINDIR [TESTBINDIR [SCRATCHDIR]]]
#        (defaults: build/host build/host-test build/host-test/kevconv)
set -u
bin=${1:-build/host}
tbin=${2:-build/host-test}
here=$(dirname "$0")
root=$(cd "$here/../.." && pwd)
. "$here/tap.sh"
scratch events "${3:-build/host-test/kevconv}"
need babeltrace2
need protoc

# consumers BINDIR NAME: the capture NAME.kev through every consumer of BINDIR, then the checks
consumers() {
    local b=$1 s=$dir/$2 line
    "$b/kevscen" -r 2 events "$s.kev" >"$s.expect" || { notok "$2: kevscen writes it"; return; }
    "$b/kevtable" "$s.kev" >"$s.kevtable" 2>"$s.err" || { notok "$2: kevtable reads it" "$(cat "$s.err")"; return; }
    "$b/traceprinter" "$s.kev" >"$s.tp" 2>"$s.err" || { notok "$2: traceprinter reads it" "$(cat "$s.err")"; return; }
    rm -rf "$s.ctf"
    "$b/kev2ctf" -o "$s.ctf" "$s.kev" 2>"$s.err" || { notok "$2: kev2ctf converts it" "$(cat "$s.err")"; return; }
    babeltrace2 "$s.ctf" >"$s.bt" 2>"$s.bterr" || { notok "$2: babeltrace2 reads it" "$(head -3 "$s.bterr")"; return; }
    "$b/kev2json" -o "$s.json" "$s.kev" 2>"$s.err" || { notok "$2: kev2json converts it" "$(cat "$s.err")"; return; }
    "$b/kev2perfetto" -o "$s.pftrace" "$s.kev" 2>"$s.err" || { notok "$2: kev2perfetto converts it" "$(cat "$s.err")"; return; }
    python3 "$here/check_perfetto.py" -v "$s.pfview" "$s.pftrace" >"$s.pftap" 2>&1
    grep -q '^ok .*kernel-call slices, each begin named' "$s.pftap"
    check "$2: kev2perfetto's kernel-call slices keep trace processor's rules" test $? = 0
    # Perfetto's schema, by protoc: its decode equals check_perfetto.py's, and gives the
    # instants and kernel-call slices check_event_table.py holds against kevscen's truth.
    python3 "$here/check_perfetto_protoc.py" -d "$s.pfinst" -k "$s.pfkcalls" -c "$s.pfcounters" \
        "$here/perfetto_subset.proto" "$s.pftrace" "$s.pfview" >"$s.pbtap" 2>&1 ||
        grep -q '^not ok' "$s.pbtap" || echo "not ok 0 - check_perfetto_protoc.py failed" >>"$s.pbtap"
    # its priority counters, thread-state slices and ready threads: traceprinter's events'
    "$b/traceprinter" -n -m -p '%c|%C|%Z|%z|%a' "$s.kev" >"$s.tpcols"
    python3 "$here/check_perfetto_states.py" "$s.tpcols" "$s.pfcounters" >>"$s.pbtap" 2>&1 ||
        grep -q '^not ok' "$s.pbtap" || echo "not ok 0 - check_perfetto_states.py failed" >>"$s.pbtap"
    while IFS= read -r line; do
        case $line in
            "ok "*) ok "$2: kev2perfetto by Perfetto's protos: ${line#ok * - }" ;;
            "not ok "*) notok "$2: kev2perfetto by Perfetto's protos: ${line#not ok * - }" ;;
            *) echo "$line" ;;
        esac
    done <"$s.pbtap"
    "$b/kevtable" >"$s.listing"
    "$b/kevsql" --csv --no-header "$s.kev" "SELECT e.class, e.type, e.arg_set_id, a.key, \
        a.display_value FROM event e JOIN args a USING (arg_set_id)" >"$s.sql" 2>"$s.err" ||
        { notok "$2: kevsql reads it" "$(cat "$s.err")"; return; }
    python3 "$here/check_event_table.py" "$s.expect" "$s.kevtable" "$s.bt" "$s.json" "$s.pfinst" \
        "$s.tp" "$s.sql" "$s.listing" "$s.pfkcalls" >"$s.tap" 2>&1 || echo "not ok 0 - check_event_table.py failed" >>"$s.tap"
    while IFS= read -r line; do
        case $line in
            "ok "*) ok "$2: ${line#ok * - }" ;;
            "not ok "*) notok "$2: ${line#not ok * - }" ;;
            *) echo "$line" ;;
        esac
    done <"$s.tap"
}

consumers "$bin" table

# QNX's interrupted call is its call's exit (kev_kcall_exit): kevscen writes MsgSend's ended
# [-1, 4], 4 being EINTR in QNX's <errno.h>; kev2json's top-level args must say errno 4 (EINTR),
# as babeltrace2 reads kev2ctf's syscall_exit (ret -4, LTTng's -errno, interrupted 1).
python3 - "$dir/table.json" "$dir/table.bt" >"$dir/intr.out" 2>&1 <<'PY'
import json, re, sys
recs = json.load(open(sys.argv[1]))["traceEvents"]
js = [r["args"] for r in recs if (r.get("args") or {}).get("event", "").startswith("KER_INTR_")]
bt = [l for l in open(sys.argv[2]) if "interrupted = 1" in l]
print("# kev2json", [(a.get("ret"), a.get("errno"), a.get("errno_name"), a.get("interrupted")) for a in js])
print("# babeltrace2", [re.search(r"ret = (-?\d+)", l).group(1) for l in bt])
sys.exit(not (js and len(js) == len(bt) and
              all((a.get("ret"), a.get("errno"), a.get("errno_name"), a.get("interrupted")) ==
                  (-1, 4, "EINTR", 1) for a in js) and all("ret = -4," in l for l in bt)))
PY
if [ $? = 0 ]; then ok "table: kev2json's interrupted calls carry errno 4 (EINTR), as babeltrace2 reads them"
else notok "table: kev2json's interrupted calls carry errno 4 (EINTR), as babeltrace2 reads them"
    cat "$dir/intr.out"; fi

# The same capture as a QNX system's (its board record hidden, kev_as_qnx.py): the decoder names
# the kernel calls' words by QNX's layouts (trace/kev_kercall.c) and kev2ctf's classes follow:
# every word named as kevtable names it; the words past QNX's layout (kevtable's "more", QNX
# writes none) are not written, and kev2ctf says how many.
q=$dir/qnx
if python3 "$here/kev_as_qnx.py" "$dir/table.kev" "$q.kev" 2>"$q.err" &&
    "$bin/kevtable" "$q.kev" >"$q.kevtable" 2>>"$q.err" &&
    "$bin/kev2ctf" -o "$q.ctf" "$q.kev" 2>"$q.ctferr" && babeltrace2 "$q.ctf" >"$q.bt" 2>>"$q.err"; then
    python3 "$here/check_event_table.py" --kcalls "$q.kevtable" "$q.bt" >"$q.tap" 2>&1 ||
        echo "not ok 0 - check_event_table.py --kcalls failed" >>"$q.tap"
    while IFS= read -r line; do
        case $line in
            "ok "*) ok "QNX layouts: ${line#ok * - }" ;;
            "not ok "*) notok "QNX layouts: ${line#not ok * - }" ;;
            *) echo "$line" ;;
        esac
    done <"$q.tap"
    more=$(grep -E '^[0-9]+ [0-9]+ KER_CALL KER_(CALL|EXIT)_' "$q.kevtable" | grep -c ' more=')
    grep -q "^kev2ctf: $more kernel-call fields beyond their call's layout were not written" "$q.ctferr"
    check "QNX layouts: kev2ctf reports the $more fields past QNX's layouts it could not place" test $? = 0
    grep -q 'name = "syscall_exit_MsgReceive";' -A20 "$q.ctf/kernel/metadata" &&
        sed -n '/name = "syscall_exit_MsgReceive";/,/^};/p' "$q.ctf/kernel/metadata" | grep -q 'info_srcmsglen;'
    check "QNX layouts: syscall_exit_MsgReceive declares QNX's wide exit (rcvid, rmsg, info_*)" test $? = 0
else
    notok "QNX layouts: the capture as a QNX system's, through kevtable, kev2ctf, babeltrace2" "$(cat "$q.err" "$q.ctferr" 2>/dev/null | head -3)"
fi
consumers "$tbin/evrow" test-row
grep -q '^expect-field TEST_ONLY level ' "$dir/test-row.expect"
check "test-row: the test-only event is written (its row, kevscen's one emit site for all rows)" test $? = 0
grep -q 'TEST_ONLY' "$dir/table.expect"
check "table: the test-only row is in the test builds alone" test $? = 1
grep -q ' TEST_ONLY who=0x[0-9a-f]* level=[0-9]* flagged=1 where=0x[0-9a-f]* label="label_[0-9]*"$' \
    "$dir/test-row.kevtable"
check "test-row: kevtable names its five fields" test $? = 0

# The test row's D probe (kevtest:::test-only: who, its pid, level, flagged, where) is in no
# probe list: the row gives it its id. The test build of dtrace lists it and the build without
# the row does not; dtrace -i fires it once per TEST_ONLY event, with the values kevscen wrote,
# and the build without the row fires it for no event of the same capture.
"$tbin/evrow/dtrace" -l -n 'kevtest:::test-only' >"$dir/test-row.l" 2>&1
grep -qE '^ *[0-9]+ +kevtest +test-only$' "$dir/test-row.l"
check "test-row: dtrace -l lists its D probe, which no probe list names" test $? = 0
"$bin/dtrace" -l | grep -q 'kevtest'
check "test-row: the build without the row lists no such probe" test $? = 1
dscript='kevtest:::test-only { printf("%d %d %d %d %d\n", arg0, arg1, arg2, arg3, arg4); }'
"$tbin/evrow/dtrace" -q -i "$dir/test-row.kev" -n "$dscript" >"$dir/test-row.d" 2>"$dir/test-row.derr"
# (where, 64 bits, as the text kevscen wrote: mawk's %d stops at 2^31 - 1)
awk '$1 == "expect-field" && $2 == "TEST_ONLY" { v[$3] = $4 }
     $1 == "expect-field" && $2 == "TEST_ONLY" && $3 == "where" {
         printf "%d %d %d %d %s\n", v["who"], int(v["who"] / 65536), v["level"], v["flagged"], v["where"] }' \
    "$dir/test-row.expect" >"$dir/test-row.dwant"
test -s "$dir/test-row.dwant" && diff "$dir/test-row.dwant" <(grep . "$dir/test-row.d") >"$dir/test-row.ddiff"
rc=$? nwant=$(wc -l <"$dir/test-row.dwant")   # (the count's substitution would reset $?)
check "test-row: dtrace -i fires its D probe with its fields, per event ($nwant events)" test $rc = 0
"$bin/dtrace" -q -i "$dir/test-row.kev" -n "$dscript" 2>/dev/null | grep -q .
check "test-row: the build without the row fires that probe for no event" test $? = 1

# The docs: the listing is kevtable's output, then emitgen's; trace-events.md's event numbers
# are the table's.
marker='<!-- kevtable: the lines below are generated -->'
diff <(sed "1,/^$marker\$/d" "$root/docs/event-table.md") <("$bin/kevtable"; "$bin/emitgen" -l) \
    >"$dir/doc.diff"
check "docs/event-table.md is kevtable's and emitgen -l's output (scripts/event-table-doc.sh rewrites it)" \
    test $? = 0
python3 - "$root/docs/trace-events.md" "$dir/table.kevtable" "$bin/kevtable" >"$dir/doc.tap" <<'PY'
import re, subprocess, sys
page, _, kevtable = sys.argv[1:4]
names = {}  # (class, number) -> name, from kevtable's listing
cls = None
for line in subprocess.run([kevtable], capture_output=True, text=True).stdout.splitlines():
    m = re.match(r"### (\w+) \(class (\d+)\)", line)
    if m:
        cls = int(m.group(2))
    m = re.match(r"\| (\d+)(?:-(\d+))? \| (\w+) \|", line)
    if m and cls is not None:
        for n in range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1):
            names[(cls, n)] = m.group(3)
bad, seen, cls = [], 0, None
for line in open(page):
    m = re.match(r"## \w+ \(class (\d+)\)", line)
    if m:
        cls = int(m.group(1))
    elif line.startswith("## "):
        cls = None
    m = re.match(r"\| (0x[0-9a-f]+|\d+) (\w+)", line)
    if m and cls is not None:
        seen += 1
        n, nm = int(m.group(1), 0), m.group(2)
        got = names.get((cls, n), "")
        if nm not in (got, got[2:] if got.startswith("TH") else None):
            bad.append((cls, m.group(1), nm, got))
print("%s 1 - trace-events.md: its %d event rows name each number as the table does"
      % ("ok" if seen and not bad else "not ok", seen))
if bad:
    print("# " + str(bad))
PY
while IFS= read -r line; do
    case $line in
        "ok "*) ok "${line#ok * - }" ;;
        "not ok "*) notok "${line#not ok * - }" ;;
        *) echo "$line" ;;
    esac
done <"$dir/doc.tap"

# The readers take every field from the table (docs/event-table.md: kev_fields_decode,
# kev_field_read, the model's kx_fields.h, kev_who_pid): no tool's source reads an event's word
# at a position of its own (w[0], w[1]...), takes a word's bits or splits a who (pid << 16 |
# tid) by hand; and the shared decoders of STACK, FAULT, KPANIC and IMAGE (trace/) use none of
# kev.h's packing macros, nor does the kernel, which packs by the rows. Not readers: kevscen and kev_capture.c
# (they write events), the instruction decoders (fbt_*, fbtgen), kevdump's target memory, and
# kev_live.c's 16-bit stream frame numbers; qnx_kercall.c reads QNX's kernel-call layouts by
# their own positions (trace/kev_kercall.c's table of them), as QNX's traceprinter prints them.
hand=$(cd "$root" && grep -rnE '\bw\[[0-9]+\]|>> *16\b|& *0xffffu?\b' tools --include='*.c' |
       grep -v '^tools/kevconv/kevscen\|^tools/common/kev_capture.c\|^tools/common/fbt_\|^tools/fbtgen/\|^tools/kevdump/' |
       grep -v '^tools/traceprinter/qnx_kercall.c' |
       grep -v '^tools/common/kev_live.c:.*& *0xffffu' || true)
if [ -z "$hand" ]; then ok "no tool reads an event's words by position, a word's bits or a who by hand"
else notok "a tool reads an event's words by hand, not by the event table" "$hand"; fi
packing='KEV_(STACK_(KIND|DEPTH|ENDED|INFO|AT_MAX|PC64)|FAULT_(SIGNAL|KIND|ADDR_VALID)|PANIC_ORIGIN|IMAGE_ID_LEN|URING_GIVEN_UP)\b'
macros=$(cd "$root" && grep -rnE "$packing" trace tools --include='*.c' | grep -v '^tools/kevconv/kevscen' || true)
if [ -z "$macros" ]; then ok "the decoders read STACK, FAULT, KPANIC, IMAGE and URING_BAD by the table, not kev.h's packing"
else notok "a decoder unpacks by kev.h's packing macros, not by the event table" "$macros"; fi
# The kernel writes those words by the rows' layouts too (the generated packers, kev_pack_<row>):
# no kernel source packs them by kev.h's macros (comments aside).
kpack=$(cd "$root" && grep -rnE "$packing" kernel --include='*.c' --include='*.h' | grep -vE '^[^:]+:[0-9]+: *//' || true)
if [ -z "$kpack" ]; then ok "the kernel packs STACK, FAULT, KPANIC, IMAGE and URING_BAD by the rows' layouts, not kev.h's macros"
else notok "a kernel source packs an event's word by kev.h's macros, not by the row's layout" "$kpack"; fi
# A site's values reach the generated code as arguments, never by a local's name: no source
# but the generator's says KEV_PACK (a payload word from the locals named as its fields), and
# no kernel source fires through a row's argument-order macro (KEV_D_<ROW>_<PROBE>(FIRE),
# whose arguments were the helper's locals of those names).
byname=$(cd "$root" && grep -rnE 'KEV_PACK|\bKEV_D_[A-Z0-9_]+\(' kernel trace tools user \
             --include='*.c' --include='*.h' | grep -v '^tools/emitgen/' || true)
if [ -z "$byname" ]; then ok "no source but the generator binds an event's values by a local's name (KEV_PACK, KEV_D_*(FIRE))"
else notok "a source binds an event's values by a local's name" "$byname"; fi
finish
