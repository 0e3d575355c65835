#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# An event added as docs/adding-an-event.md says, in a scratch copy of the tree: a made-up row
# (SYSTEM 0x20e MADEUP [who, level], its D probe kevtest:::made-up of its own) written into
# trace/kev_events.c, the listing docs/event-table.md rewritten by its script, its line in
# docs/trace-events.md, and its site, one call of the helper the build generates from the row
# (kev_emit_madeup) in the test image's ThreadCtl(KTCTL_KDEBUG_ROW) handler
# (test/tools/test_event_row_kernel.c), which user/apps/kevrow reaches three times with values
# it prints first. The scratch tree holds this build's objects with their times, so make
# rebuilds what the row changes and no more. Then the truths from outside the code that wrote
# the event: the files the change touched, counted by diff against this tree (4: the page's
# count); kevrow's own lines (the values the site was given, its pid); and each reader over the
# boot's capture, none of them edited: kevtable, traceprinter's generic line, kev2json,
# kev2perfetto, kev2ctf read by babeltrace2, `dtrace -l`, the board's D live (the image's
# dtrace) and `dtrace -i` over the capture, which must print what the board printed. This
# tree's own tools, without the row, name no MADEUP. About a minute and a half, most of it the
# scratch build.
#   test/qemu/test_event_add.sh BUILD_DIR HOST_DIR
set -u
b=$(cd "$1" && pwd) h=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/tap_lib.sh"
board=$(basename "$b")
out=$b/test-event-add
src=$out/src
rm -rf "$out"
mkdir -p "$src/build/$board" "$src/build/host"

# ---- the scratch tree: the sources, and this build's objects with their times ----------------
tar -C "$root" --exclude=./build --exclude=./.git -cf - . | tar -C "$src" -xf -
tar -C "$b" --exclude='./test-*' -cf - . | tar -C "$src/build/$board" -xf -
tar -C "$h" -cf - . | tar -C "$src/build/host" -xf -

# ---- the change: the row, its site ----------------------------------------------------------
ev=$src/trace/kev_events.c
cat >"$out/layout.c" <<'C'
// a made-up event of a test (test/qemu/test_event_add.sh)
#define KEV_F_MADEUP(F, x) \
    F(x, who, WHO, WORD, 0, 0, 0, 0, NULL, "the thread") \
    F(x, level, U32, WORD, 1, 0, 12, 0, NULL, "a level, 12 bits")
FIELDS(f_madeup, KEV_F_MADEUP);
static const struct kev_dprobe d_madeup[] = {
    { "kevtest:::made-up", "who level", NULL, 0 }, D_END,
};

C
cat >"$out/row.c" <<'C'
    ROWD(EMIT, SYSTEM, 0x20e, 0x20e, "MADEUP", "a test's made-up event", f_madeup, 2, 2, NULL,
        "kevtest:::made-up (who, level)", d_madeup),
C
grep -q '^#define THR(' "$ev" && grep -q 'f_timer_lost, 3, 3, NULL, ""),$' "$ev"
ok $? "the table has the lines the row goes after (TIMER_LOST, 0x20d, the last SYSTEM row)"
awk -v lay="$out/layout.c" '
    /^#define THR\(/ && !done { while ((getline l < lay) > 0) print l; done = 1 }
    { print }' "$root/trace/kev_events.c" >"$ev"
awk -v row="$out/row.c" '
    { print }
    /f_timer_lost, 3, 3, NULL, ""\),$/ { while ((getline l < row) > 0) print l }' "$ev" >"$ev.new" &&
    mv "$ev.new" "$ev"
sed -i 's/^| 0x20d TIMER_LOST .*$/&\n| 0x20e MADEUP | a test'"'"'s made-up event | who, level |/' \
    "$src/docs/trace-events.md"
sed -i 's/^\(    kev_emit_test_only(kdt_active, .*\)$/\1\n    kev_emit_madeup(kdt_active, ktrace_who(t), r.level);/' \
    "$src/test/tools/test_event_row_kernel.c"

# ---- the scratch build: what make rebuilds from the row --------------------------------------
tools="kevtable traceprinter kev2ctf kev2json kev2perfetto dtrace dcompile"
(cd "$src" && nice make -j2 BOARD="$board" "build/$board/kevrowlive.elf" \
    $(for t in $tools; do printf 'build/host/%s ' "$t"; done)) >"$out/make.log" 2>&1
ok $? "the scratch tree builds with the row (make.log)"
(cd "$src" && scripts/event-table-doc.sh) >>"$out/make.log" 2>&1
ok $? "scripts/event-table-doc.sh rewrites the listing from the scratch kevtable"
grep -q '^static inline void kev_emit_madeup(unsigned how, uint32_t who, uint32_t level)' \
    "$src/build/host/gen/kev_emit_gen.h"
ok $? "the build generated the row's helper, kev_emit_madeup(how, who, level)"

# (files git ignores left out: another test running beside this one may write one, such as
# a tracelogger's default tracebuffer.kev, into the tree while it is compared)
(cd "$root" && diff -rq --exclude=build --exclude=.git . "$src") | sed 's/^Files \.\/\([^ ]*\) and .*/\1/' |
    while read -r f; do git -C "$root" check-ignore -q -- "$f" || echo "$f"; done >"$out/touched"
printf '%s\n' docs/event-table.md docs/trace-events.md test/tools/test_event_row_kernel.c \
    trace/kev_events.c | diff - <(sort "$out/touched") >"$out/touched.diff"
ok $? "the event took 4 files: the row, the listing, trace-events.md, the site ($(wc -l <"$out/touched") touched)"

# ---- one boot: kevrow under the board's dtrace, the tracelogger's capture ---------------------
sb=$src/build/$board sh=$src/build/host
cat >"$out/madeup.d" <<'D'
#pragma D option quiet
kevtest:::made-up
{
    printf("madeup %d %d %d\n", arg0, arg1, timestamp);
}
D
"$sh/dcompile" -s "$out/madeup.d" -o "$out/madeup.dobj" 2>"$out/dcompile.err"
ok $? "the scratch dcompile compiles kevtest:::made-up, which no probe list names"
"$sh/dtrace" -l 2>/dev/null | grep -q ' kevtest .* made-up$'
ok $? "dtrace -l lists kevtest:::made-up"
(cd "$out" && QEMU_ARGS="dtrace -c appinit $out/madeup.dobj ;; appinit kevrow ;; tracelogger -d1 -f $out/t.kev" \
    QEMU_ICOUNT=exact QEMU_TIMEOUT=${QEMU_TIMEOUT:-60} "$root/scripts/qemu-run.sh" "$sb/kevrowlive.elf" \
    >"$out/run.log" 2>&1)
rc=$?
[ $rc = 0 ] && grep -q "kevrow: done" "$out/run.log" && grep -q 'no events lost' "$out/run.log"
ok $? "the image ran kevrow under dtrace and exited $rc, nothing lost"

# the truth: kevrow's lines, "kevrow: pid P level L ..."; its thread is its first (tid 1)
sed -n 's/.*kevrow: kevrow: pid \([0-9]*\) level \([0-9]*\) .*/\1 \2/p' "$out/run.log" |
    awk '{ printf "%d %d\n", $1 * 65536 + 1, $2 }' >"$out/want"
[ "$(wc -l <"$out/want")" = 3 ]
ok $? "kevrow said it asked for 3 events"
sed -n 's/^1\/dtrace: madeup //p' "$out/run.log" >"$out/live"
cut -d' ' -f1-2 "$out/live" | diff "$out/want" - >"$out/live.diff"
ok $? "live: the board's D fired kevtest:::made-up once per event, with kevrow's values"
"$sh/dtrace" -q -i "$out/t.kev" -s "$out/madeup.d" 2>"$out/replay.err" | grep . |
    sed 's/^madeup //' | diff "$out/live" - >"$out/replay.diff"
ok $? "dtrace -i over the capture prints what the board printed, to the nanosecond"

# every reader, none edited: each event's fields with kevrow's values
want_lv=$(cut -d' ' -f2 "$out/want" | tr '\n' ' ')
"$sh/kevtable" "$out/t.kev" >"$out/kevtable.txt" 2>&1
got=$(sed -n 's/.*MADEUP.*level[:= ]*\([0-9]*\).*/\1/p' "$out/kevtable.txt" | tr '\n' ' ')
[ "$got" = "$want_lv" ]
ok $? "kevtable names MADEUP and its level: $got"
"$sh/traceprinter" "$out/t.kev" >"$out/tp.txt" 2>&1
got=$(sed -n 's/.*:MADEUP *who:0x[0-9a-f]* level:\([0-9]*\).*/\1/p' "$out/tp.txt" | tr '\n' ' ')
[ "$got" = "$want_lv" ]
ok $? "traceprinter's generic line names MADEUP, who and level: $got"
"$sh/kev2json" -o "$out/t.json" "$out/t.kev" >/dev/null 2>&1
got=$(python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
print(" ".join(str(e["args"]["fields"]["level"]) for e in ev if e.get("name") == "MADEUP") + " ")' \
    "$out/t.json")
[ "$got" = "$want_lv" ]
ok $? "kev2json writes each MADEUP with its level: $got"
"$sh/kev2perfetto" -o "$out/t.pftrace" "$out/t.kev" >/dev/null 2>&1 &&
    [ "$(grep -c -a MADEUP "$out/t.pftrace")" -ge 1 ]
ok $? "kev2perfetto's trace names MADEUP"
"$sh/kev2ctf" -o "$out/ctf" "$out/t.kev" >/dev/null 2>&1 &&
    babeltrace2 "$out/ctf" >"$out/bt.txt" 2>&1
got=$(sed -n 's/.* kev_madeup: .*kev_event = 526, .*level = \([0-9]*\).*/\1/p' "$out/bt.txt" | tr '\n' ' ')
[ "$got" = "$want_lv" ]
ok $? "babeltrace2 reads kev_madeup (526, 0x20e) and its level from kev2ctf's trace: $got"
[ "$("$h/kevtable" "$out/t.kev" 2>/dev/null | grep -c MADEUP)" = 0 ]
ok $? "this tree's kevtable, without the row, names no MADEUP"
for f in touched.diff live.diff replay.diff; do [ -s "$out/$f" ] && { echo "# $f:"; sed 's/^/#   /' "$out/$f"; }; done
# the scratch tree is most of a build (some 700 MB): gone unless KEEP is set; the capture, the
# readers' outputs and the diffs stay in $out
[ -n "${KEEP:-}" ] || rm -rf "$src"
echo "1..$n"
