#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kevsql and its SQLite extension (docs/sql.md), against truths from outside them:
#   * check_sql.py on scripted traces (kevscen: basic with its message forms and interrupts
#     while the driver is busy, sync with and without SYNC_WAIT / PRIO_CHANGE and its deadlock
#     open or broken, kevscen4's two CPUs) and generated ones (kevgen: big-endian with errors,
#     a logger that loses events): the independent reader of the bytes (event kinds, CPU time,
#     idle), kevscen's script (latencies, rates, inversions with their shares, the deadlock,
#     every wait), and kevstat's sums of the same records;
#   * the consumers: Debian's sqlite3 shell (.load) and Python's sqlite3 module
#     (load_extension) give the rows kevsql gives;
#   * the output forms: --csv (parsed by Python's csv), --json (typed), --check's exit status;
#   * a time bound on an event table gives the rows the unbounded walk gives in that range;
#   * damaged traces: the rows before the damage and the decoder's message with its byte offset,
#     strict (the query fails) and --lenient (said on stderr); never a crash or a hang over the
#     damaged copies test_kevconv_damage.sh makes and the fuzzers' seeds;
#   * many traces: one table with each trace and its metadata, the same with -j 1 and -j 2, from
#     a directory, --merge over the union, a trace that cannot be read said while the others'
#     rows are given.
# usage: test_kevsql.sh [BINDIR [SCRATCHDIR [damage]]]  (defaults: build/host build/host-test/sql)
# "damage": only the damaged traces (the ASan + UBSan build's run: BINDIR build/host-test, whose
# kevsql has the extension linked in).
set -u
bin=${1:-build/host}
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=98"
here=$(dirname "$0")
. "$here/tap.sh"
scratch sql "${2:-build/host-test/sql}"
need python3
need sqlite3
scen4=${KEVSCEN4:-build/host-test/kevscen4}
sq=$bin/kevsql
so=$(cd "$(dirname "$bin/kevsql.so")" && pwd)/kevsql.so
only=${3:-all}
tools=build/host     # kevscen, kevgen, kevstat: the optimised ones (the ASan run checks kevsql)

if [ "$only" = damage ]; then "$scen4" smp "$dir/smp.kev" > /dev/null; "$tools/kevscen" -r 7 basic "$dir/basic.kev" > /dev/null; fi
if [ "$only" = all ]; then
# ---- each trace against the reader, the script and kevstat ----------------------------------
tap_py() { # TAP lines of a checker, renumbered through tap.sh, prefixed
    local pfx=$1
    shift
    "$@" > "$dir/tap.out" 2>&1
    while IFS= read -r line; do
        case $line in
            "ok "*) ok "$pfx${line#ok * - }" ;;
            "not ok "*) notok "$pfx${line#not ok * - }" ;;
            *) echo "$line" ;;
        esac
    done < "$dir/tap.out"
}
"$tools/kevscen" -r 7 basic "$dir/basic.kev" > "$dir/basic.expect"
"$tools/kevscen" -k -i -r 9 basic "$dir/kibasic.kev" > "$dir/kibasic.expect"
"$tools/kevscen" -s -r 4 sync "$dir/sync.kev" > "$dir/sync.expect"
"$tools/kevscen" -t -r 3 sync "$dir/syncd.kev" > "$dir/syncd.expect"
"$scen4" smp "$dir/smp.kev" > "$dir/smp.expect"
"$tools/kevgen" -b -e -n 20000 -o "$dir/gen.kev" > /dev/null
"$tools/kevgen" -k 2 -d 0 -n 5000 -o "$dir/lossy.kev" > /dev/null
for t in basic kibasic sync syncd smp; do
    tap_py "" python3 "$here/check_sql.py" "$sq" "$tools/kevstat" "$dir/$t.kev" "$dir/$t.expect"
done
for t in gen lossy; do
    tap_py "" python3 "$here/check_sql.py" "$sq" "$tools/kevstat" "$dir/$t.kev"
done
lost=$("$sq" --csv --no-header "$dir/lossy.kev" "SELECT sum(lost) FROM lost")
want=$("$tools/kevstat" --json "$dir/lossy.kev" | python3 -c 'import json,sys; print(json.load(sys.stdin)["trace"]["lost"])')
check "lost: the losing logger's $want lost events, in their windows" test "$lost" = "$want" -a "$want" -gt 0

# ---- the consumers -----------------------------------------------------------------------------
q="SELECT utid, label, cpu_ns, share_pct FROM thread_cpu"
"$sq" --csv --no-header "$dir/sync.kev" "$q" > "$dir/kevsql.csv"
sqlite3 -csv :memory: ".load $so" "SELECT kev_open('$dir/sync.kev') > 0;" "$q;" > "$dir/shell.csv" 2> "$dir/shell.err"
# (read as CSV: the shell quotes more than it must, an idle thread's label "idle (CPU 0)" among them)
check "Debian's sqlite3 shell loads the extension and gives kevsql's rows" \
    python3 -c "import csv, sys; a, b = (list(csv.reader(open(f))) for f in sys.argv[1:3]); sys.exit(not b or a[1:] != b)" \
    "$dir/shell.csv" "$dir/kevsql.csv"
/usr/bin/python3 - "$so" "$dir/sync.kev" "$q" "$dir/kevsql.csv" > "$dir/py.out" 2>&1 <<'PY'
import csv, sqlite3, sys
so, trace, q, want = sys.argv[1:5]
db = sqlite3.connect(":memory:")
db.enable_load_extension(True)
db.load_extension(so)
db.execute("SELECT kev_open(?)", (trace,))
got = [[str(v) for v in r] for r in db.execute(q)]
exp = [r for r in csv.reader(open(want))]
assert got == exp, (got, exp)
print("ok")
PY
check "Debian's Python's sqlite3 module loads the extension and gives kevsql's rows" grep -qx ok "$dir/py.out"

# ---- output forms ------------------------------------------------------------------------------
"$sq" --json "$dir/sync.kev" "SELECT utid, label, cpu_ns, share_pct, NULL AS nil FROM thread_cpu" > "$dir/j.json"
check "--json: columns with their types, numbers as numbers, NULL as null" python3 - "$dir/j.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert [c["type"] for c in j["columns"]] == ["integer", "text", "integer", "real", "null"], j["columns"]
assert all(isinstance(r[0], int) and isinstance(r[1], str) and isinstance(r[2], int) and
           isinstance(r[3], float) and r[4] is None for r in j["rows"]) and j["rows"], j["rows"]
PY
"$sq" --csv "$dir/sync.kev" "SELECT label, 'a,b \"c\"' AS text FROM thread_label" > "$dir/c.csv"
check "--csv: a header, quoted fields read back by Python's csv" python3 -c "
import csv, sys
r = list(csv.reader(open('$dir/c.csv')))
assert r[0] == ['label', 'text'] and all(x[1] == 'a,b \"c\"' for x in r[1:]) and len(r) > 2, r"
"$sq" --check "$dir/sync.kev" "SELECT * FROM priority_inversion" > /dev/null
check "--check: exit 1 when the query returns a row (sync's inversions)" test $? = 1
"$sq" --check "$dir/basic.kev" "SELECT * FROM priority_inversion" > /dev/null
check "--check: exit 0 when it returns none (basic has no inversion)" test $? = 0
"$sq" "$dir/basic.kev" "SELECT * FROM no_such_table" > /dev/null 2> "$dir/err"
check "a failing query: exit 1, SQLite's message" bash -c "[ \$? = 1 ] || true; grep -q 'no such table' '$dir/err'"
"$sq" --help | grep -q "sched_slice"
check "--help lists the tables" test $? = 0
# kev_columns marks a column Perfetto's exactly when Perfetto's table of that name has it: the
# columns of Perfetto's trace processor views (its stdlib prelude: sched_slice, thread_state,
# thread, process, cpu, flow, slice, instant, counter, args, metadata, track), written here
# from them
"$sq" --csv --no-header "$dir/basic.kev" "SELECT table_name, name, perfetto FROM kev_columns" > "$dir/cols.csv"
check "kev_columns: a column is Perfetto's where Perfetto's table has that column, and only there" python3 - "$dir/cols.csv" <<'PY'
import csv, sys
perfetto = {
    "sched_slice": "id ts dur cpu utid end_state priority ucpu",
    "thread_state": "id ts dur cpu utid state io_wait blocked_function waker_utid waker_id irq_context ucpu",
    "thread": "id utid tid name start_ts end_ts upid is_main_thread is_idle machine_id arg_set_id",
    "process": "id upid pid name start_ts end_ts parent_upid uid android_appid cmdline arg_set_id machine_id",
    "cpu": "id ucpu cpu cluster_id processor machine_id capacity arg_set_id",
    "flow": "id slice_out slice_in trace_id arg_set_id",
    "slice": "id type ts dur track_id category name depth stack_id parent_stack_id parent_id "
             "arg_set_id thread_ts thread_dur thread_instruction_count thread_instruction_delta "
             "cat slice_id",
    "instant": "ts track_id name arg_set_id",
    "counter": "id type ts track_id value arg_set_id",
    "args": "id type arg_set_id flat_key key int_value string_value real_value value_type "
            "display_value",
    "metadata": "id type name key_type int_value str_value",
    # track.type is ours: the kind of track, where Perfetto's names the track's table
    "track": "id name classification dimension_arg_set_id parent_id source_arg_set_id machine_id",
}
rows = list(csv.reader(open(sys.argv[1])))
for t, names in perfetto.items():
    ours = {n: f for tab, n, f in rows if tab == t}
    assert ours and all(f in ("0", "1") for f in ours.values()), (t, ours)
    want = {n for n in ours if n in names.split()}
    got = {n for n, f in ours.items() if f == "1"}
    assert got == want, (t, sorted(got ^ want))
assert {f for tab, n, f in rows if tab == "kcall"} == {"0"}, "kcall is ours"
PY

# ---- a time bound on an event table ----------------------------------------------------------
mid=$("$sq" --csv --no-header "$dir/gen.kev" "SELECT (min(ts) + max(ts)) / 2 FROM event")
a=$("$sq" --csv --no-header "$dir/gen.kev" "SELECT count(*), sum(id) FROM event WHERE ts BETWEEN $mid AND $mid + 5000000")
b=$("$sq" --csv --no-header "$dir/gen.kev" "SELECT count(*), sum(id) FROM event WHERE ts + 0 BETWEEN $mid AND $mid + 5000000")
check "ts bounds on event (the walk stops past them): the rows of the whole walk in that range ($a)" \
    test "$a" = "$b" -a "${a%%,*}" -gt 0

fi
# ---- damaged traces --------------------------------------------------------------------------
size=$(stat -c %s "$dir/basic.kev")
head -c $((size * 2 / 3)) "$dir/basic.kev" > "$dir/cut.kev"
"$sq" --csv --no-header "$dir/cut.kev" "SELECT count(*) FROM event" > /dev/null 2> "$dir/cut.err"
rc=$?
check "strict: a truncated trace fails the query with the decoder's message and byte offset" \
    bash -c "[ $rc = 1 ] && grep -q 'byte offset [0-9]' '$dir/cut.err'"
nrows=$("$sq" --csv --no-header "$dir/cut.kev" "SELECT id FROM event" 2> /dev/null | wc -l)
last=$("$sq" --csv --no-header "$dir/basic.kev" "SELECT max(id) FROM event")
check "strict: the rows before the damage come first ($nrows of $last events)" test "$nrows" -gt 100 -a "$nrows" -lt "$last"
"$sq" --lenient --csv --no-header "$dir/cut.kev" "SELECT count(*) FROM event" > "$dir/len.out" 2> "$dir/len.err"
rc=$?
check "--lenient: the events before the damage counted, the damage said, exit 1" \
    bash -c "[ $rc = 1 ] && [ \"\$(cat '$dir/len.out')\" = $nrows ] && grep -q 'damaged: .*byte offset' '$dir/len.err'"
# every table over damaged copies (test_kevconv_damage.sh's way) and the fuzzers' seeds
"$tools/kevscen" -k loss "$dir/good.kev" > /dev/null
gsize=$(stat -c %s "$dir/good.kev")
cases=()
for cut in 0 10 100 700 4096 20000 $((gsize / 2)) $((gsize - 64)) $((gsize - 1)); do
    head -c "$cut" "$dir/good.kev" > "$dir/d-cut$cut.kev"
    cases+=("$dir/d-cut$cut.kev")
done
RANDOM=23
for i in $(seq 16); do
    cp "$dir/good.kev" "$dir/d-bytes$i.kev"
    off=$(( (RANDOM * 32768 + RANDOM) % gsize ))
    len=$(( 1 + RANDOM % 48 ))
    byte=$(( RANDOM % 256 ))
    head -c "$len" /dev/zero | tr '\0' "\\$(printf '%03o' "$byte")" |
        dd of="$dir/d-bytes$i.kev" bs=1 seek="$off" conv=notrunc status=none
    cases+=("$dir/d-bytes$i.kev")
done
for i in 1 2 3 4; do
    cp "$dir/smp.kev" "$dir/d-smp$i.kev"
    printf '\x5a\x5a\x5a\x5a\x5a\x5a' | dd of="$dir/d-smp$i.kev" bs=1 seek=$(( $(stat -c %s "$dir/smp.kev") * i / 5 )) conv=notrunc status=none
    cases+=("$dir/d-smp$i.kev")
done
for f in build/fuzz/seeds-fuzz_kev_decode/*.kev build/fuzz/fuzz_kev_decode.corpus/*; do
    [ -f "$f" ] && cases+=("$f")
done
all=$(for t in $("$sq" --csv --no-header "$dir/basic.kev" "SELECT name FROM kev_tables WHERE name != 'cpu_load'"); do
          printf 'SELECT count(*) FROM %s; ' "$t"; done)
all="$all SELECT count(*) FROM cpu_load(100000);"
bad=0
for f in "${cases[@]}"; do
    for mode in "" --lenient; do
        err=$(timeout 20 "$sq" $mode --csv "$f" "$all" 2>&1 > /dev/null); rc=$?
        if [ "$rc" != 0 ] && ! { [ "$rc" = 1 ] && [ -n "$err" ]; }; then
            echo "# $f $mode: exit $rc: $(head -c 200 <<<"$err")"
            bad=$((bad + 1))
        fi
    done
done
check "every table over ${#cases[@]} damaged traces, strict and lenient: no crash or hang, a message on each failure" test "$bad" = 0

if [ "$only" = damage ]; then finish; exit; fi
# ---- many traces ---------------------------------------------------------------------------------
mkdir -p "$dir/fleet"
for t in basic kibasic sync syncd gen; do cp "$dir/$t.kev" "$dir/fleet/$t.kev"; done
fq="SELECT irq, interrupts, max_ns FROM irq_latency"
"$sq" -j 1 --json "$fq" "$dir/fleet" > "$dir/j1.json"
"$sq" -j 2 --json "$fq" "$dir"/fleet/*.kev > "$dir/j2.json"
check "many traces: -j 1 over the directory and -j 2 over its files give the same table" \
    cmp -s "$dir/j1.json" "$dir/j2.json"
check "many traces: each trace's rows are its own query's, after its path, board, build and boot date" \
    python3 - "$dir/j2.json" "$sq" "$fq" "$dir/fleet" <<'PY'
import json, subprocess, sys, os
j = json.load(open(sys.argv[1]))
cols = [c["name"] for c in j["columns"]]
assert cols[:4] == ["trace", "board", "build", "boot_date"], cols
some = 0
for f in sorted(os.listdir(sys.argv[4])):
    p = os.path.join(sys.argv[4], f)
    one = json.loads(subprocess.run([sys.argv[2], "--json", p, sys.argv[3]], capture_output=True, text=True).stdout)["rows"]
    mine = [r[4:] for r in j["rows"] if r[0] == p]
    assert mine == one, (p, mine, one)
    some += len(one) > 0
assert some >= 3, some
PY
m=$("$sq" --csv --no-header --merge "SELECT count(DISTINCT trace), sum(interrupts) FROM result" "$fq" "$dir/fleet")
s=0 k=0
for t in basic kibasic sync syncd gen; do
    x=$("$sq" --csv --no-header "$dir/$t.kev" "SELECT coalesce(sum(interrupts), 0) FROM irq_latency")
    s=$((s + x)) k=$((k + (x > 0)))
done
check "--merge: a query over the union ($m; the traces one by one: $k,$s)" test "$m" = "$k,$s"
rows=$(wc -l < <("$sq" --csv --no-header "$fq" "$dir/fleet"))
printf 'not a trace' > "$dir/fleet/zz-bad.kev"
"$sq" --csv "$fq" "$dir/fleet" > "$dir/bad.csv" 2> "$dir/bad.err"
rc=$?
check "a trace that cannot be read: said, exit 1, the other traces' $rows rows given" \
    bash -c "[ $rc = 1 ] && grep -q 'zz-bad.kev' '$dir/bad.err' && [ \$(grep -c '/fleet/' '$dir/bad.csv') = $rows ]"
finish
