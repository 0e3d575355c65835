#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A thread state added whose change fires derived sched probes, as docs/adding-an-event.md
# says, in a scratch copy of the tree: a made-up blocked state 22 THMADEUP, its row written into
# trace/kev_events.c, one line of the derived probes' table in trace/kev_derived.c (sched:::sleep
# then block-sem, its object the first argument of ThreadCtl, the call that blocks in it), the
# listing docs/event-table.md rewritten by its script, and its site: the test image's
# ThreadCtl(KTCTL_KDEBUG_ROW) handler (test/tools/test_event_row_kernel.c) puts the calling
# thread into the state and back to RUNNING through kev_emit_thread_state, which
# user/apps/kevrow reaches three times, printing its pid first. The scratch tree holds this
# build's objects with their times, so make rebuilds what the change touches and no more. Then
# the truths from outside the code that fired the probes: the files the change touched,
# counted by diff against this tree (4: the table, the rules' table, the listing, the site,
# and nothing of the kernel's firing or of dtrace -i's replay); kevrow's own lines (its pid,
# three calls) and uapi/kapi.h's KTCTL_KDEBUG_ROW (the object); the board's D live (the image's
# dtrace) against `dtrace -i` over the capture, which must print what the board printed, to the
# nanosecond; this tree's dtrace -i, without the rule, fires nothing at the state, its
# kevtable names no THMADEUP, and its readers read the capture through (kev2json crashed on a
# state no row names). About half a minute, most of it the scratch build.
#   test/qemu/test_event_add_sched.sh BUILD_DIR HOST_DIR
set -u
b=$(cd "$1" && pwd) h=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/tap_lib.sh"
board=$(basename "$b")
out=$b/test-event-add-sched
src=$out/src
rm -rf "$out"
mkdir -p "$src/build/$board" "$src/build/host"

# ---- the scratch tree: the sources, and this build's objects with their times ----------------
tar -C "$root" --exclude=./build --exclude=./.git -cf - . | tar -C "$src" -xf -
tar -C "$b" --exclude='./test-*' -cf - . | tar -C "$src/build/$board" -xf -
tar -C "$h" -cf - . | tar -C "$src/build/host" -xf -

# ---- the change: the row, the rule, the site -------------------------------------------------
state=22
obj=$(sed -n 's/^#define KTCTL_KDEBUG_ROW *\(0x[0-9a-fA-F]*\).*/\1/p' "$root/kernel/include/uapi/kapi.h")
tc=$(sed -n 's/^ *X(\([0-9]*\), ThreadCtl, .*/\1/p' "$root/kernel/include/uapi/kcall.h")
[ -n "$obj" ] && [ -n "$tc" ] &&
    [ -z "$("$h/kevtable" | awk -v st="$state" '/^### /{ p = /PR_TH/ } p && $2 == st')" ]
ok $? "state $state is no state of the table; ThreadCtl is call $tc, KTCTL_KDEBUG_ROW $obj"
ev=$src/trace/kev_events.c rules=$src/trace/kev_derived.c site=$src/test/tools/test_event_row_kernel.c
grep -q '^    ROW(PR_TH, KEV_TH_WAITCHILD, ' "$ev" && grep -q '^    { KEV_TH_SEM, DPROBE_SCHED_BLOCK_SEM, ' "$rules" &&
    grep -q '^    kev_emit_test_only(kdt_active, ' "$site"
ok $? "the lines the change goes after are there (THWAITCHILD's row, SEM's rule, the site's emit)"
# the row, after THWAITCHILD's (two lines: the state before it, 21)
awk -v st="$state" '
    { print }
    /^    ROW\(PR_TH, KEV_TH_WAITCHILD, / { wc = 1; next }
    wc == 1 { wc = 0
        printf "    ROWD(OWN, PR_TH, %s, %s, \"THMADEUP\", \"a thread waits on a test'"'"'s made-up object\",\n", st, st
        print "        f_thread, 2, 4, NULL, \"sched::: sleep, block-* (block-sem)\", d_thread_state)," }' \
    "$root/trace/kev_events.c" >"$ev"
sed -i "s/^    { KEV_TH_SEM, DPROBE_SCHED_BLOCK_SEM, .*$/&\n    { $state, DPROBE_SCHED_BLOCK_SEM, $tc, 0 },   \/\/ a test's: ThreadCtl's command/" "$rules"
sed -i 's/^\(    kev_emit_test_only(kdt_active, .*\)$/\1\n    kev_emit_thread_state(kdt_active, ktrace_ring_on(KEV_C_PR_TH), t, \&t->traced_state, '"$state"', ktrace_pid(t), ktrace_tid(t), t->prio, t->policy, ktrace_who(t), KTCTL_KDEBUG_ROW, 0);\n    kev_emit_thread_state(kdt_active, ktrace_ring_on(KEV_C_PR_TH), t, \&t->traced_state, t->state, ktrace_pid(t), ktrace_tid(t), t->prio, t->policy, ktrace_who(t), 0, 0);/' \
    "$site"
[ "$(grep -c THMADEUP "$ev")" = 1 ] && [ "$(grep -c "^    { $state, " "$rules")" = 1 ] &&
    [ "$(grep -c 'kev_emit_thread_state(' "$site")" = 2 ]
ok $? "the row, the rule and the site are written, once each"

# ---- the scratch build: what make rebuilds from the change -----------------------------------
tools="kevtable traceprinter dtrace dcompile emitgen"
(cd "$src" && nice make -j2 BOARD="$board" "build/$board/kevrowlive.elf" \
    $(for t in $tools; do printf 'build/host/%s ' "$t"; done)) >"$out/make.log" 2>&1
ok $? "the scratch tree builds with the state (make.log)"
(cd "$src" && scripts/event-table-doc.sh) >>"$out/make.log" 2>&1
ok $? "scripts/event-table-doc.sh rewrites the listing from the scratch kevtable and emitgen"

# (files git ignores left out: another test running beside this one may write one, such as
# a tracelogger's default tracebuffer.kev, into the tree while it is compared)
(cd "$root" && diff -rq --exclude=build --exclude=.git . "$src") | sed 's/^Files \.\/\([^ ]*\) and .*/\1/' |
    while read -r f; do git -C "$root" check-ignore -q -- "$f" || echo "$f"; done >"$out/touched"
printf '%s\n' docs/event-table.md test/tools/test_event_row_kernel.c trace/kev_derived.c \
    trace/kev_events.c | diff - <(sort "$out/touched") >"$out/touched.diff"
ok $? "the state took 4 files: the row, its rule, the listing, the site; no firing code ($(wc -l <"$out/touched") touched)"

# ---- one boot: kevrow under the board's dtrace, the tracelogger's capture ---------------------
sb=$src/build/$board sh=$src/build/host
cat >"$out/madeup.d" <<D
#pragma D option quiet
sched:::sleep
/arg3 == $state/
{
    printf("sleep %d %d %d %d %d\n", arg0, arg1, arg3, tid, timestamp);
    self->madeup = 1;
}
sched:::block-sem
/self->madeup/
{
    printf("block-sem %d %d %d %d %d\n", arg0, arg1, arg3, tid, timestamp);
    self->madeup = 0;
}
D
"$sh/dcompile" -s "$out/madeup.d" -o "$out/madeup.dobj" 2>"$out/dcompile.err"
ok $? "the scratch dcompile compiles the script"
(cd "$out" && QEMU_ARGS="dtrace -c appinit $out/madeup.dobj ;; appinit kevrow ;; tracelogger -d1 -f $out/t.kev" \
    QEMU_ICOUNT=exact QEMU_TIMEOUT=${QEMU_TIMEOUT:-60} "$root/scripts/qemu-run.sh" "$sb/kevrowlive.elf" \
    >"$out/run.log" 2>&1)
rc=$?
[ $rc = 0 ] && grep -q "kevrow: done" "$out/run.log" && grep -q 'no events lost' "$out/run.log"
ok $? "the image ran kevrow under dtrace and exited $rc, nothing lost"

# the truth: kevrow's lines, "kevrow: pid P ..."; its thread is its first (tid 1); each call
# fires sleep (arg3 the state) then block-sem (arg3 the object, ThreadCtl's command)
sed -n 's/.*kevrow: kevrow: pid \([0-9]*\) level .*/\1/p' "$out/run.log" |
    awk -v st="$state" -v o="$(printf '%d' "$obj")" '{ w = $1 * 65536 + 1
        printf "sleep %d %d %d 1\nblock-sem %d %d %d 1\n", w, $1, st, w, $1, o }' >"$out/want"
[ "$(wc -l <"$out/want")" = 6 ]
ok $? "kevrow said it made 3 calls"
sed -n 's/^1\/dtrace: \(sleep\|block-sem\) /\1 /p' "$out/run.log" >"$out/live"
cut -d' ' -f1-5 "$out/live" | diff "$out/want" - >"$out/live.diff"
ok $? "live: the board fired sleep and block-sem at each call, with kevrow's thread, the state, the object"
"$sh/dtrace" -q -i "$out/t.kev" -s "$out/madeup.d" 2>"$out/replay.err" | grep . >"$out/replay"
diff "$out/live" "$out/replay" >"$out/replay.diff"
ok $? "dtrace -i over the capture prints what the board printed, to the nanosecond"
! grep -q 'not in this capture' "$out/replay.err"
ok $? "dtrace -i found the object in the capture (ThreadCtl's entry), naming nothing missing"

# the readers and this tree's tools, without the change
"$sh/kevtable" "$out/t.kev" 2>&1 | grep -c THMADEUP >"$out/kevtable.n"
[ "$(cat "$out/kevtable.n")" = 3 ]
ok $? "the scratch kevtable names the 3 THMADEUP events"
[ "$("$h/kevtable" "$out/t.kev" 2>/dev/null | grep -c THMADEUP)" = 0 ]
ok $? "this tree's kevtable, without the row, names no THMADEUP"
# a capture of a state a reader's table does not name is still read, to the end
bad=
for t in traceprinter kevstat kev2json kev2perfetto kev2ctf; do
    case $t in kev2*) "$h/$t" -o "$out/old.$t" "$out/t.kev" ;; *) "$h/$t" "$out/t.kev" ;; esac \
        >"$out/old.$t.out" 2>&1 || bad="$bad $t"
done
[ -z "$bad" ]
ok $? "this tree's readers, without the row, read the capture and exit 0${bad:+ (not:$bad)}"
"$h/dtrace" -q -i "$out/t.kev" -s "$out/madeup.d" 2>/dev/null | grep -c . >"$out/old.n"
[ "$(cat "$out/old.n")" = 0 ]
ok $? "this tree's dtrace -i, without the rule, fires nothing at the state"
for f in touched.diff live.diff replay.diff; do [ -s "$out/$f" ] && { echo "# $f:"; sed 's/^/#   /' "$out/$f"; }; done
# the scratch tree is most of a build (some 700 MB): gone unless KEEP is set; the capture, the
# outputs and the diffs stay in $out
[ -n "${KEEP:-}" ] || rm -rf "$src"
echo "1..$n"
