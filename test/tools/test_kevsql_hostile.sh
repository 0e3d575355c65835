#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hostile SQL against kevsql's extension (docs/sql-hostile.md): what a fleet or a service
# running users' queries meets. Each statement gives an error that says why, never a crash,
# never a hang, in kevsql, in Debian's sqlite3 shell with the extension loaded (.load) and in
# Python's sqlite3 module:
#   * a virtual table's arguments name the trace kev_open opened on the connection, never an
#     address: CREATE VIRTUAL TABLE ... USING kev(...) with any other argument fails;
#   * load_extension() from SQL fails (the host's own .load / load_extension still works);
#   * a recursive query over the tables that walk the trace fails at its bound, while recursion
#     that does not walk it, a correlated subquery per thread and a join of thread with every
#     slice still give their answers (arithmetic, and the tables' own counts);
#   * huge and negative LIMIT / OFFSET give SQL's answers (none, all), a LIMIT that is not a
#     number SQLite's error.
# usage: test_kevsql_hostile.sh [BINDIR [SCRATCHDIR]]  (BINDIR build/host-test: the ASan + UBSan
# kevsql, whose report is a crash here: exit codes 98/99)
set -u
bin=${1:-build/host}
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=98"
here=$(dirname "$0")
. "$here/tap.sh"
scratch sqlhostile "${2:-build/host-test/sql}"
need python3
need /usr/bin/python3   # Debian's: its sqlite3 module loads extensions
need sqlite3
sq=$bin/kevsql
so=$(realpath build/host/kevsql.so)
build/host/kevgen -n 2000 -o "$dir/g.kev" > /dev/null
build/host/kevgen -n 300 -o "$dir/h.kev" > /dev/null
tr=$dir/g.kev

# expect_err NAME PATTERN RC OUTPUT: the statement failed (rc 1, not a signal or a sanitizer's
# exit) with a message matching PATTERN
expect_err() {
    local name=$1 pat=$2 rc=$3 out=$4
    if [ "$rc" = 1 ] && grep -qE -- "$pat" <<<"$out"; then ok "$name"
    else notok "$name" "exit $rc (1 wanted), output:" "$(head -5 <<<"$out")"; fi
}
run_sq() { timeout 120 "$sq" "$tr" "$1" 2>&1; }

# ---- virtual-table arguments --------------------------------------------------------------------
notours='not the trace open on this connection'
for arg in 42 0 -1 18446744073709551615 0x1000 140737488355328 "'1'" 1.0 2 "1 + 1" \
           "$(printf '9%.0s' $(seq 200))"; do
    out=$(run_sq "CREATE VIRTUAL TABLE temp.x USING kev(thread, $arg); SELECT * FROM x")
    rc=$?
    expect_err "kevsql: USING kev(thread, ${arg:0:24}) refused" "$notours|kev: usage" $rc "$out"
done
for args in "" "thread" "thread, 1, 1" "nosuch, 1" "'thread', 1"; do
    out=$(run_sq "CREATE VIRTUAL TABLE temp.x USING kev($args); SELECT * FROM x")
    expect_err "kevsql: USING kev($args) refused" "kev: usage|kev: no table|$notours" $? "$out"
done
# the number of the trace open (1) is accepted: the same rows as kev_open's table
out=$(run_sq "CREATE VIRTUAL TABLE temp.x USING kev(thread, 1); SELECT (SELECT count(*) FROM x) = (SELECT count(*) FROM thread)")
if [ $? = 0 ] && [ "$(tail -1 <<<"$out" | tr -d ' ')" = 1 ]; then ok "kevsql: USING kev(thread, 1) names the open trace"
else notok "kevsql: USING kev(thread, 1) names the open trace" "$out"; fi
# a second kev_open: the first trace's number no longer names anything
out=$(run_sq "SELECT kev_open('$dir/h.kev'); CREATE VIRTUAL TABLE temp.x USING kev(thread, 1); SELECT * FROM x")
expect_err "kevsql: the closed trace's number is refused after kev_open of another" "$notours" $? "$out"

# ---- load_extension from SQL ------------------------------------------------------------------------
out=$(run_sq "SELECT load_extension('$so')")
expect_err "kevsql: load_extension() from SQL refused" "load_extension\(\) from SQL is disabled|not authorized" $? "$out"

# ---- recursion, correlated subqueries ----------------------------------------------------------------
# the first pass's small tables are read as often as a query asks (a join reads one per row)
out=$(run_sq "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r, (SELECT count(*) AS k FROM thread) WHERE n < 100 * k) SELECT count(*) = 100 * (SELECT count(*) FROM thread) FROM r")
if [ $? = 0 ] && [ "$(tail -1 <<<"$out" | tr -d ' ')" = 1 ]; then ok "kevsql: a recursive query that reads thread at each step and ends gives its answer"
else notok "kevsql: a recursive query that reads thread at each step and ends gives its answer" "$out"; fi
# (4,096 reads of sched_slice: 130 s of CPU under ASan on a 2-core build machine, past run_sq's
# 120 s on a loaded one: its own 300 s)
out=$(timeout 300 "$sq" "$tr" "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r, sched_slice WHERE n < 1000000) SELECT count(*) FROM r" 2>&1)
expect_err "kevsql: recursive query over sched_slice stops at its bound" "sched_slice read 4096 times" $? "$out"
out=$(run_sq "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100000) SELECT sum(n) FROM r")
if [ $? = 0 ] && [ "$(tail -1 <<<"$out" | tr -d ' ')" = 5000050000 ]; then ok "kevsql: recursion without the tables still runs (1..100000 sums to 5000050000)"
else notok "kevsql: recursion without the tables still runs" "$out"; fi
out=$(run_sq "SELECT (SELECT sum(c) FROM (SELECT (SELECT count(*) FROM sched_slice s WHERE s.utid = t.utid) AS c FROM thread t)) = (SELECT count(*) FROM sched_slice)")
if [ $? = 0 ] && [ "$(tail -1 <<<"$out" | tr -d ' ')" = 1 ]; then ok "kevsql: a correlated subquery per thread adds up to the table's count"
else notok "kevsql: a correlated subquery per thread adds up to the table's count" "$out"; fi
# the bound is per statement: the next statement counts from zero
out=$(run_sq "SELECT count(*) FROM (SELECT (SELECT count(*) FROM sched_slice s WHERE s.utid = t.utid) FROM thread t); SELECT count(*) FROM (SELECT (SELECT count(*) FROM sched_slice s WHERE s.utid = t.utid) FROM thread t)")
[ $? = 0 ] && ok "kevsql: two statements each under the bound run" || notok "kevsql: two statements each under the bound run" "$out"

# a join reads thread once per row of a larger table (more rows than any bound a count could set)
build/host/kevgen -n 300000 -o "$dir/big.kev" > /dev/null
out=$(timeout 300 "$sq" "$dir/big.kev" "SELECT (SELECT count(*) FROM slice s JOIN thread t USING (utid)) = (SELECT count(*) FROM slice WHERE utid IS NOT NULL), (SELECT count(*) FROM slice) > 65536" 2>&1)
if [ $? = 0 ] && [ "$(tail -1 <<<"$out" | tr -s ' ' | sed 's/^ //')" = "1 1" ]; then ok "kevsql: slice JOIN thread over more than 65,536 slices gives every slice its thread"
else notok "kevsql: slice JOIN thread over more than 65,536 slices gives every slice its thread" "$out"; fi

# ---- LIMIT / OFFSET ---------------------------------------------------------------------------------
out=$(run_sq "SELECT count(*) FROM (SELECT * FROM sched_slice LIMIT 9223372036854775807 OFFSET 9223372036854775807)")
[ $? = 0 ] && [ "$(tail -1 <<<"$out" | tr -d ' ')" = 0 ] && ok "kevsql: the largest OFFSET gives no rows" \
    || notok "kevsql: the largest OFFSET gives no rows" "$out"
out=$(run_sq "SELECT (SELECT count(*) FROM (SELECT * FROM event LIMIT 9223372036854775807)) = (SELECT count(*) FROM event), (SELECT count(*) FROM (SELECT * FROM event LIMIT -1 OFFSET -9223372036854775808)) = (SELECT count(*) FROM event)")
[ $? = 0 ] && [ "$(tail -1 <<<"$out" | tr -s ' ' | sed 's/^ //')" = "1 1" ] && ok "kevsql: the largest and negative LIMIT / OFFSET give every row" \
    || notok "kevsql: the largest and negative LIMIT / OFFSET give every row" "$out"
out=$(run_sq "SELECT * FROM event LIMIT 'many'")
expect_err "kevsql: a LIMIT that is not a number is SQLite's error" "datatype mismatch" $? "$out"

# ---- the same in Debian's sqlite3 shell and Python, the extension loaded ------------------------------
shell_out=$(printf '%s\n' ".load ${so%.so}" "SELECT kev_open('$tr');" \
    "CREATE VIRTUAL TABLE temp.x USING kev(thread, 42);" "SELECT load_extension('$so');" \
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r, sched_slice WHERE n < 1000000) SELECT count(*) FROM r;" \
    ".load ${so%.so}" "SELECT count(*) FROM thread;" | timeout 120 sqlite3 2>&1)
rc=$?
if [ $rc -lt 128 ] && grep -q "$notours" <<<"$shell_out" && grep -q 'load_extension() from SQL is disabled' <<<"$shell_out" \
   && grep -q 'sched_slice read 4096 times' <<<"$shell_out"; then
    ok "sqlite3 shell: kev(thread, 42), load_extension() and the recursive query each give their error"
else notok "sqlite3 shell: kev(thread, 42), load_extension() and the recursive query each give their error" "exit $rc" "$shell_out"; fi
# the shell's own .load (the C API) still works after the extension turned the SQL function off
nthreads=$("$sq" --csv "$tr" 'SELECT count(*) FROM thread' | tail -1)
[ "$(tail -1 <<<"$shell_out")" = "$nthreads" ] && ok "sqlite3 shell: .load still loads after it ($nthreads threads)" \
    || notok "sqlite3 shell: .load still loads after it" "last line $(tail -1 <<<"$shell_out"), $nthreads wanted"
py_out=$(timeout 120 /usr/bin/python3 - "$so" "$tr" <<'EOF' 2>&1
import sqlite3, sys
so, tr = sys.argv[1], sys.argv[2]
db = sqlite3.connect(":memory:")
db.enable_load_extension(True)
db.load_extension(so)
db.execute("SELECT kev_open(?)", (tr,))
for sql in ("CREATE VIRTUAL TABLE temp.x USING kev(thread, 42)",
            "SELECT load_extension('%s')" % so,
            "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r, sched_slice WHERE n < 1000000) SELECT count(*) FROM r"):
    try:
        db.execute(sql).fetchall()
        print("no error:", sql)
    except sqlite3.Error as e:
        print("error:", e)
db.load_extension(so)   # the C API still loads
print("threads", db.execute("SELECT count(*) FROM thread").fetchone()[0])
EOF
)
rc=$?
if [ $rc = 0 ] && [ "$(grep -c '^error:' <<<"$py_out")" = 3 ] && grep -q "threads $nthreads" <<<"$py_out"; then
    ok "python sqlite3: the three hostile statements fail, load_extension() from Python still loads"
else notok "python sqlite3: the three hostile statements fail, load_extension() from Python still loads" "exit $rc" "$py_out"; fi
finish
