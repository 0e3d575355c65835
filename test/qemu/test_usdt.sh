#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# USDT probes (docs/usdt.md), checked against tools that are not ours and against the
# program's own counters, in one -icount boot of the usdt image (the board's dtrace starting
# usdtdemo):
#  - binutils' readelf -n and gdb-multiarch's `info probes` list usdtdemo's stapsdt notes, and
#    our dtrace -l --elf lists the same probes at the same addresses;
#  - the note survived the program's link: it is in the ELF file the image holds, and each
#    site is a `nop` there (objdump);
#  - enabled, every site fires as often as the program says it passed it, with its arguments
#    (arg0 of demo:::step summed equals the sum of i the program passed, arg1 the running
#    value step was given, demo:::third's arguments its counter and -i);
#  - the same D program with dtrace -i over that boot's capture (SYSTEM USDT events, taken by
#    the tracelogger appinit starts) gives the board's answers, count for count;
#  - every reader of that capture (traceprinter, kevstat, kevsql, kev2ctf read by babeltrace2,
#    kev2perfetto decoded by protoc, kev2json, kevreport drawn by chromium) names each firing
#    as readelf -n names its site's note, counts what the program passed, and shows the
#    arguments the program printed (a negative one signed); kev2ctf's FUNC events name their
#    function as nm does (test/qemu/check_usdt_readers.py);
#  - a probe that matches nothing, and a site address that is not a site: DTrace-worded
#    refusals, nothing placed;
#  - in the same boot, pid$target probes on two of usdtdemo's functions (docs/pid.md), with
#    gdb-multiarch attached to that QEMU (test/qemu/fbt_gdb.py): each entry probe fired as
#    often as gdb's breakpoint on the function's first instruction was hit while the probes
#    were placed, and so did each return probe; the first call's arguments D printed are
#    gdb's `info args`, its return value gdb's `finish`, and the return's offset objdump's;
#    when the D program stops, after usdtdemo exited, the functions' text is the ELF file's
#    again (their probes came off with the process: gdb reads both); dtrace -i over that
#    boot's capture (SYSTEM FUNC_ENTER/FUNC_EXIT events) gives the pid clauses' counts and
#    return values the board gave, and kevstat -s funcs the same calls;
#  - pid probes the host refuses in DTrace's words: a function that does not exist, an entry
#    the kernel cannot displace, a return it cannot run; and those only the kernel can: a
#    process that does not exist, a process that runs another program;
#  - on A64, each entry instruction the kernel runs for a thread, a function each
#    (usdtdemo shapes, user/apps/usdtdemo/shapes.c): D's entry and return counts, arguments
#    and return values on them are the program's own, and every result the program checked
#    right (test/qemu/test_pid_ops.sh does the same for i386 and Thumb).
# Where: mps2-an385 (Thumb), qemu-virt-a53 and raspi3b (A64: the sites' nop read with A64's
# objdump, a moved note 4 bytes on, ELF64's notes, spread's fifth argument in x4) and x86-pc
# (i386) run all of it. x86-pc has no semihosting: its dtrace opens the host-compiled objects
# as Multiboot modules (boards/x86-pc/qemu.sh, docs/x86.md) and the capture comes out of the
# trace UART, rebuilt by kevcapture. The refused functions are each instruction set's own (an
# entry the kernel cannot run: Thumb's cmp, A64's add, i386's load from memory; a return: a
# function that also leaves by a tail call or an indirect jump).
#   test/qemu/test_usdt.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
img=$B/usdt.elf
prog=$B/usdt/usdtdemo.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap 'kill $qpid 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
qpid=
case $board in
qemu-virt-a53|raspi3b) cross=aarch64-linux-gnu- objdump_m="" insn=4 pid=yes ;;
x86-pc)                cross=i686-linux-gnu- objdump_m="" insn=1 pid=yes ;;
*)                     cross=arm-none-eabi- objdump_m="-M force-thumb" insn=2 pid=yes ;;
esac
# pid: the bit a function's symbol adds to its address (Thumb's), the refused functions (an
# entry the kernel cannot run, a return it cannot run alone) and objdump's return mnemonic
case $board in
x86-pc)
    fbit=0 noentry=count_spread noentry_why="count_spread's load from memory" noret=convert
    noret_why="printf's convert leaves by its switch's indirect jump too" ret_re='^ret' ;;
qemu-virt-a53|raspi3b)
    fbit=0 noentry=strnlen noentry_why="strnlen's add" noret=libc_thread_init
    noret_why="libc_thread_init can leave by a tail call or an indirect jump" ret_re='^ret' ;;
*)
    fbit=1 noentry=strtol noentry_why="strtol's cmp" noret=__d_vfprintf
    noret_why="__d_vfprintf leaves by an indirect jump too" ret_re='^(bx\tlr|pop.*pc}|ldmia.*pc})' ;;
esac
# the main boot's capture: a host file through semihosting, or the trace UART's stream
if [ "$board" = x86-pc ]; then
    tlog="tracelogger -d1 -u" uart=$tmp/run.uart
else
    tlog="tracelogger -d1 -f $tmp/run.kev" uart=
fi
skip_pid() {    # skip_pid N WHAT: N checks of the pid provider, not run on this board
    for _ in $(seq "$1"); do
        n=$((n + 1)); echo "ok $n - ${TAP_PREFIX:-}$2 # SKIP no pid probes on $board's architecture yet"
    done
}
echo "1..38"

# 1-3: three listings of the same notes
dec() { while read -r p nm a; do printf '%s %s %d\n' "$p" "$nm" "$a"; done | sort; }
readelf -n "$prog" | awk '/Provider:/ { p = $2 } /Name:/ { n = $2 }
    /Location:/ { sub(",", "", $2); print p, n, $2 }' | dec > "$tmp/readelf"
gdb-multiarch -q -batch -ex 'info probes' "$prog" 2>/dev/null |
    awk '$1 == "stap" { print $2, $3, $4 }' | dec > "$tmp/gdb"
"$H/dtrace" --elf "$prog" -l 2>"$tmp/list.err" |
    awk '$2 == "demo" { print $2, $5, $3 }' | sort -u > "$tmp/dnames"
nsites=$(wc -l < "$tmp/readelf")
check "readelf -n lists usdtdemo's $nsites USDT sites (step, third, done, costly)" \
    '[ "$nsites" -ge 4 ] && [ "$(cut -d" " -f2 "$tmp/readelf" | sort -u | tr "\n" " ")" = "costly done step third " ]'
diff "$tmp/readelf" "$tmp/gdb" > "$tmp/d1"
ok $? "gdb-multiarch's info probes lists the same sites at the same addresses"
[ -s "$tmp/d1" ] && sed 's/^/# /' "$tmp/d1"
cut -d" " -f1,2 "$tmp/readelf" | sort -u > "$tmp/rnames"
cut -d" " -f1,2 "$tmp/dnames" | sort -u > "$tmp/dn2"
diff "$tmp/rnames" "$tmp/dn2" > "$tmp/d2"
ok $? "dtrace -l --elf lists the same probes ($(tr '\n' ',' < "$tmp/dn2"))"
[ -s "$tmp/d2" ] && sed 's/^/# /' "$tmp/d2"

# 4: each site is a nop in the image the board runs (its .apps section holds the programs' bytes)
bad=0
while read -r p nm a; do
    ins=$(${cross}objdump -D $objdump_m --start-address=$a --stop-address=$((a + insn)) "$img" |
          awk -F'\t' '/^ *[0-9a-f]+:/ { print $3; exit }')
    [ "$ins" = "nop" ] || { echo "# site $p:::$nm at $a holds '$ins'"; bad=1; }
done < "$tmp/readelf"
ok $bad "every site is one nop in the image's text (the disabled cost: that instruction)"

# 5-7: enabled, the firings against the program's own counters
cat > "$tmp/usdt.d" <<'D'
#pragma D option quiet
demo:::step { @n["step"] = count(); @s["step-arg0"] = sum(arg0); @mx["step-arg1"] = max(arg1); }
demo:::third { @n["third"] = count(); @s["third-arg0"] = sum(arg0); @mn["third-arg1"] = min((int)arg1); }
demo:::done { @n["done"] = count(); }
demo:::costly { @n["costly"] = count(); @s["costly-arg0"] = sum(arg0); }
demo:::step /arg0 == 7/ { printf("@@A step %d %d %s %s\n", arg0, arg1, probemod, probefunc); }
END { printa("@@N %s %@d\n", @n); printa("@@N %s %@d\n", @s); printa("@@N %s %@d\n", @mx);
    printa("@@N %s %@d\n", @mn); }
D
# pid probes on two functions of usdtdemo: step_plain (on Thumb it opens with a pc-relative
# load, on A64 with a frame record's stp, on i386 with push %ebp) and spread (a push, and its
# fifth argument on the stack; on A64 a mov, and the fifth in x4), their counts and first
# arguments
pidfuncs="step_plain spread"
cat > "$tmp/pid.d" <<'D'
pid$target::step_plain:entry, pid$target::spread:entry { @p[probefunc] = count(); }
pid$target::step_plain:return, pid$target::spread:return { @p[strjoin(probefunc, "-return")] = count(); }
pid$target::step_plain:return /!r_step_plain++/ { printf("RET step_plain 1 %d %d\n", (int)arg1, arg0); }
pid$target::spread:return /!r_spread++/ { printf("RET spread 1 %d %d\n", (int)arg1, arg0); }
pid$target::step_plain:entry /!a_step_plain++/ { printf("ARGS step_plain 1 %d %d\n", arg0, arg1); }
pid$target::spread:entry /!a_spread++/ {
    printf("ARGS spread 1 %d %d %d %d %d\n", (int)arg0, (int)arg1, (int)arg2, (int)arg3, (int)arg4); }
END { printa("COUNT %s %@d\n", @p); }
D
if [ $pid = yes ]; then cat "$tmp/usdt.d" "$tmp/pid.d"; else cat "$tmp/usdt.d"; fi > "$tmp/both.d"
"$H/dcompile" --elf "$prog" -T usdtdemo -s "$tmp/both.d" -o "$tmp/usdt.dobj" 2> "$tmp/dcompile.err" ||
    sed 's/^/# /' "$tmp/dcompile.err"
addrs="" texts=""
[ $pid = yes ] && for f in $pidfuncs; do
    read -r a sz < <(${cross}nm -S "$prog" | awk -v f="$f" '$4 == f && $3 ~ /[tT]/ { print $1, $2; exit }')
    addrs="$addrs $f:0x$(printf '%x' $((0x$a & ~fbit)))"
    texts="$texts 0x$(printf '%x' $((0x$a & ~fbit))):$((0x$sz))"
done
gdb=$tmp/gdb.sock   # QEMU's gdbstub: a UNIX socket of this run's own
if [ $pid = no ]; then      # no gdb: it counts the pid probes' functions
(cd "$tmp" && QEMU_ARGS="dtrace -c appinit $tmp/usdt.dobj ;; appinit usdtdemo ;; $tlog" QEMU_ICOUNT=1 \
    QEMU_UART1=$uart QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" > "$tmp/live" 2>&1)
rc=$?
[ -z "$uart" ] || "$H/kevcapture" -q -o "$tmp/run.kev" "$uart" >> "$tmp/live" 2>&1 || rc=1
else
(cd "$tmp" && QEMU_ARGS="dtrace -c appinit $tmp/usdt.dobj ;; appinit usdtdemo ;; $tlog" QEMU_ICOUNT=1 \
    QEMU_UART1=$uart QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" -S -gdb "unix:$gdb,server=on,wait=off" > "$tmp/live" 2>&1) &
qpid=$!
sock_wait "$gdb"
FBT_WINDOW="kpid_enable kpid_disable" FBT_TEXT=$texts FBT_FUNCS=$addrs FBT_OUT=$tmp/gdb.out timeout 300 \
    gdb-multiarch -batch -nx -ex "file $img" -ex "add-symbol-file $prog" \
    -ex "target remote $gdb" -ex "source $here/test/qemu/fbt_gdb.py" > "$tmp/gdb.log" 2>&1
wait $qpid
rc=$?
qpid=
[ -z "$uart" ] || "$H/kevcapture" -q -o "$tmp/run.kev" "$uart" >> "$tmp/live" 2>&1 || rc=1
fi
ok $rc "usdtdemo ran under dtrace with its USDT probes enabled and exited 0"
[ $rc = 0 ] || tail -20 "$tmp/live" | sed 's/^/# /'
line=$(grep -o 'usdtdemo: passed step [0-9]* third [0-9]* done [0-9]*, acc [0-9]* (plain [0-9]*), costly [0-9]*' "$tmp/live")
read -r ps pt pd acc pc < <(echo "$line" | sed -E 's/.*step ([0-9]+) third ([0-9]+) done ([0-9]+), acc ([0-9]+).*costly ([0-9]+)/\1 \2 \3 \4 \5/')
con_of dtrace < "$tmp/live" | grep '^@@' > "$tmp/board"
con_of dtrace < "$tmp/live" | grep -E '^(COUNT|ARGS|RET) ' > "$tmp/pid.out"
v() { awk -v k="$1" '$1 == "@@N" && $2 == k { print $3 }' "$tmp/board"; }
echo "# program: step $ps third $pt done $pd acc $acc; D: step $(v step) third $(v third) done $(v done)"
check "each probe fired as often as the program passed its site (step $ps, third $pt, done $pd)" \
    '[ -n "$ps" ] && [ "$(v step)" = "$ps" ] && [ "$(v third)" = "$pt" ] && [ "$(v done)" = "$pd" ]'
# the program's arguments: step(i, acc) for i = 1..30, acc the running sum of 3j for j < i
# (the last, at i = 30, the program's final acc - 90; at i = 7, 63); third's counter 1..10
# and -i for i = 3, 6, ... 30
check "the arguments are the program's: sum of step's i $(v step-arg0) (465), its last acc $(v step-arg1) ($((${acc:-0} - 90))), third's counter sum $(v third-arg0) (55) and least -i $(v third-arg1) (-30), step 7 at usdtdemo\`step" \
    '[ "$(v step-arg0)" = 465 ] && [ "$(v step-arg1)" = "$((${acc:-0} - 90))" ] && [ "$(v third-arg0)" = 55 ] &&
     [ "$(v third-arg1)" = -30 ] && grep -q "^@@A step 7 63 usdtdemo step$" "$tmp/board"'

# 8-11: over the capture, the same answers
grep -q "tracelogger: no events lost" "$tmp/live"
ok $? "the capture of the run lost nothing"
"$H/dtrace" -q --elf "$prog" -i "$tmp/run.kev" -s "$tmp/usdt.d" > "$tmp/replay.raw" 2> "$tmp/replay.err"
grep '^@@' "$tmp/replay.raw" | sort > "$tmp/replay"
sort "$tmp/board" > "$tmp/board.sorted"
diff "$tmp/board.sorted" "$tmp/replay" > "$tmp/d3" && [ "$(wc -l < "$tmp/replay")" -ge 8 ]
ok $? "dtrace -i over the capture gives the board's $(wc -l < "$tmp/board.sorted") answers, count for count and argument for argument"
[ -s "$tmp/d3" ] && sed 's/^/# /' "$tmp/d3" | head -20
[ -s "$tmp/replay.err" ] && sed 's/^/# stderr: /' "$tmp/replay.err" | head -5
# The same with no --elf: dtrace -i finds usdtdemo's file by the build id the capture records
# (docs/symbols.md), as kevstat does. With the capture's record of its build directory pointed
# elsewhere (and run from a directory with no build/), nothing is found: the probe that matches
# nothing says which program has no file and what to pass, and exits 1.
"$H/dtrace" -q -i "$tmp/run.kev" -s "$tmp/usdt.d" 2> "$tmp/byid.err" | grep '^@@' | sort > "$tmp/byid"
diff "$tmp/board.sorted" "$tmp/byid" > /dev/null && [ "$(wc -l < "$tmp/byid")" -ge 8 ]
ok $? "dtrace -i without --elf finds usdtdemo by the capture's build id: the board's $(wc -l < "$tmp/byid") answers"
[ $? = 0 ] || sed 's/^/# stderr: /' "$tmp/byid.err" | head -5
# (a short path: the event keeps its size, and a path under mktemp's directory can outgrow the
# room the board's own path left, which depends on where the tree was cloned)
python3 "$here/test/stacks/kev_image_path.py" "$tmp/run.kev" "$tmp/gone.kev" /gone/usdt.elf > /dev/null
(cd "$tmp" && "$H/dtrace" -q -i gone.kev -s usdt.d > gone.out 2> gone.err)
rc=$?
[ $rc = 1 ] && grep -q 'demo:::step does not match any probes' "$tmp/gone.err" &&
    grep -q "programs without: .*usdtdemo.*--elf FILE.*--symbols DIR" "$tmp/gone.err"
ok $? "with usdtdemo's file nowhere, demo:::step is refused (rc $rc), naming usdtdemo and --elf / --symbols"
[ $? = 0 ] || sed 's/^/# /' "$tmp/gone.err" | head -5

# 12-18: the capture's USDT events by name in every reader (docs/usdt.md, "Over the capture"),
# the ELF file found by the capture's build id: each firing named provider:probe as readelf -n
# names the note at its site, each probe counted as the program passed it, and demo:third's
# arguments as the program printed them (-3, -6, ...: signed as its note says); kev2ctf's FUNC
# events name their function as nm's symbols hold this_fn; babeltrace2 reads the CTF, protoc
# decodes the Perfetto trace by Perfetto's schema, chromium draws the report's USDT section.
readers() {     # readers NAME OUTPUT [NM]: check_usdt_readers.py's line, numbered
    local line
    python3 "$here/test/qemu/check_usdt_readers.py" "$1" "$2" "$tmp/readelf" "$tmp/live" ${3:-} > "$tmp/rd.tap" 2>&1
    line=$(grep -m1 -E '^(not )?ok - ' "$tmp/rd.tap")
    if [ -z "$line" ]; then ok 1 "$1: its check ran"
    else [ "${line%% - *}" = ok ]; ok $? "${line#*ok - }"; fi
    grep -v -E '^(not )?ok - ' "$tmp/rd.tap" | sed 's/^\([^#]\)/# \1/' | head -8
}
"$H/traceprinter" "$tmp/run.kev" > "$tmp/tp.txt" 2> "$tmp/tp.err"
readers traceprinter "$tmp/tp.txt"
"$H/kevstat" -s usdt "$tmp/run.kev" > "$tmp/ks.txt" 2> "$tmp/ks.err"
readers kevstat "$tmp/ks.txt"
{ "$H/kevsql" --json "$tmp/run.kev" 'SELECT site, name, module, arg0, arg1 FROM usdt ORDER BY ts'
  echo; "$H/kevsql" --json "$tmp/run.kev" "SELECT name, count(*) FROM event WHERE class = 'SYSTEM' GROUP BY name"
} > "$tmp/sql.txt" 2> "$tmp/sql.err"
readers kevsql "$tmp/sql.txt"
${cross}nm -S "$prog" > "$tmp/nm.txt"
"$H/kev2ctf" -o "$tmp/ctf" "$tmp/run.kev" 2> "$tmp/ctf.err" && babeltrace2 "$tmp/ctf" > "$tmp/bt.txt" 2>> "$tmp/ctf.err"
readers ctf "$tmp/bt.txt" "$tmp/nm.txt"
"$H/kev2perfetto" -o "$tmp/p.pftrace" "$tmp/run.kev" 2> "$tmp/pf.err"
python3 "$here/test/tools/check_perfetto.py" -v "$tmp/p.view" "$tmp/p.pftrace" > /dev/null 2>&1
python3 "$here/test/tools/check_perfetto_protoc.py" -d "$tmp/p.inst" "$here/test/tools/perfetto_subset.proto" \
    "$tmp/p.pftrace" "$tmp/p.view" > "$tmp/p.protoc" 2>&1
grep '^not ok' "$tmp/p.protoc" | sed 's/^/# protoc: /'
readers perfetto "$tmp/p.inst"
"$H/kev2json" -o "$tmp/j.json" "$tmp/run.kev" 2> "$tmp/j.err"
readers json "$tmp/j.json"
"$H/kevreport" -o "$tmp/r.html" "$tmp/run.kev" > /dev/null 2> "$tmp/r.err"
prof=$(mktemp -d)
timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
    --virtual-time-budget=5000 --dump-dom "file://$tmp/r.html" > "$tmp/r.html.dom" 2> /dev/null
rm -rf "$prof"
readers report "$tmp/r.html"

# 19: a probe description matching nothing: the compiler says so in DTrace's words
"$H/dcompile" --elf "$prog" -n 'demo:::nosuch { exit(0); }' -o "$tmp/x.dobj" > "$tmp/nomatch" 2>&1
grep -q 'probe description demo:::nosuch does not match any probes' "$tmp/nomatch"
ok $? "a USDT probe that does not exist: 'does not match any probes'"
[ $? = 0 ] || sed 's/^/# /' "$tmp/nomatch"

# 20: a site address that is not a site (the note of demo:::done moved to the instruction
# after its nop, 2 or 4 bytes on, in a copy of the ELF file): the kernel checks the site
# before it writes anything and refuses in DTrace's words.
python3 "$here/test/qemu/usdt_note.py" "$prog" "$tmp/moved.elf" done "pc+$insn"
cp "$tmp/moved.elf" "$tmp/usdtdemo.elf"
"$H/dcompile" --elf "$tmp/usdtdemo.elf" -n 'demo:::done { @ = count(); }' -o "$tmp/moved.dobj" 2> "$tmp/moved.err" ||
    sed 's/^/# /' "$tmp/moved.err"
(cd "$tmp" && QEMU_ARGS="dtrace -c usdtdemo $tmp/moved.dobj" QEMU_ICOUNT=1 \
    QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" > "$tmp/moved" 2>&1)
grep -q "dtrace: could not enable tracing: demo:usdtdemo::done: 0x[0-9a-f]* is not a USDT site of usdtdemo" "$tmp/moved"
ok $? "a note that names no site: 'is not a USDT site of usdtdemo', refused before anything is written"
[ $? = 0 ] || tail -8 "$tmp/moved" | sed 's/^/# /'

# 21-34: the pid provider (on the boards that place its probes)
if [ $pid = no ]; then
    skip_pid 10 "pid probes: gdb's counts, arguments, returns, text, the host's refusals, capture"
    # what the kernel says instead, nothing run (a boot refused at enabling)
    "$H/dcompile" --elf "$prog" -T usdtdemo -n 'pid$target::step_plain:entry { @ = count(); }' \
        -o "$tmp/k.dobj" > "$tmp/k.err" 2>&1
    (cd "$tmp" && QEMU_ARGS="dtrace -c usdtdemo $tmp/k.dobj" QEMU_ICOUNT=1 \
        QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" > "$tmp/kref" 2>&1)
    grep -qF "dtrace: could not enable tracing: pid probes cannot be placed on this board" "$tmp/kref" &&
        ! grep -q '^usdtdemo: passed' "$tmp/kref"
    r=$?
    ok $r "the kernel refuses a pid probe here (kpid_none.c's reason) and runs nothing"
    [ $r = 0 ] || tail -4 "$tmp/kref" | sed 's/^/# /'
else
# 21-22: the pid probes against gdb over the same run
bad=0 counts=""
for f in $pidfuncs; do
    d=$(awk -v f="$f" '$1 == "COUNT" && $2 == f { print $3 }' "$tmp/pid.out")
    g=$(awk -v f="$f" '$1 == "COUNT" && $2 == f { print $3 }' "$tmp/gdb.out" 2>/dev/null)
    counts="$counts $f ${d:-0}/${g:-?}"
    [ -n "$g" ] && [ "${d:-0}" = "$g" ] && [ "$g" -gt 0 ] || bad=1
done
ok $bad "pid\$target::F:entry fired as often as gdb's breakpoint on F was hit (D/gdb:$counts)"
bad=0 counts=""
for f in $pidfuncs; do
    d=$(awk -v f="$f-return" '$1 == "COUNT" && $2 == f { print $3 }' "$tmp/pid.out")
    g=$(awk -v f="$f" '$1 == "COUNT" && $2 == f { print $3 }' "$tmp/gdb.out" 2>/dev/null)
    counts="$counts $f ${d:-0}/${g:-?}"
    [ -n "$g" ] && [ "${d:-0}" = "$g" ] || bad=1
done
ok $bad "pid\$target::F:return fired once a call too (returns/gdb's hits:$counts)"
[ $bad = 0 ] || tail -5 "$tmp/gdb.log" | sed 's/^/# gdb: /'
python3 - "$tmp/pid.out" "$tmp/gdb.out" "$pidfuncs" > "$tmp/pidcmp" <<'PY'
import sys
def table(path):
    t = {}
    try:
        for line in open(path):
            w = line.split()
            if len(w) >= 3 and w[0] == "ARGS":
                t[w[1]] = w[3:]
    except OSError:
        pass
    return t
d, g = table(sys.argv[1]), table(sys.argv[2])
m, n, bad = (1 << 64) - 1, 0, 0
for f in sys.argv[3].split():
    if f not in d or f not in g or len(g[f]) > len(d[f]):
        print("# %s: D %s, gdb %s" % (f, d.get(f), g.get(f))); bad += 1; continue
    for k, v in enumerate(g[f]):
        if v == "-":
            continue
        n += 1
        if int(d[f][k]) & m != int(v) & m:
            print("# %s: arg%d D %s, gdb %s" % (f, k, d[f][k], v)); bad += 1
print("VALUES %d BAD %d" % (n, bad))
PY
sed -n '/^#/p' "$tmp/pidcmp"
read -r _ nvals _ nbad < <(grep '^VALUES' "$tmp/pidcmp")
check "the first call's entry arguments D printed equal gdb's info args ($nvals values, spread's fifth too)" \
    '[ "${nbad:-1}" = 0 ] && [ "${nvals:-0}" = 7 ]'
# the return: arg1 against gdb's finish, arg0 against the offset of the function's return
# instruction in objdump's disassembly (each function has one)
rets=""
bad=0
for f in $pidfuncs; do
    read -r dv doff < <(awk -v f="$f" '$1 == "RET" && $2 == f { print $4, $5 }' "$tmp/pid.out")
    gv=$(awk -v f="$f" '$1 == "RET" && $2 == f { print $4 }' "$tmp/gdb.out" 2>/dev/null)
    start=$(${cross}nm "$prog" | awk -v f="$f" '$3 == f { print $1 }')
    at=$(${cross}objdump -d "$prog" | awk -F'\t' -v f="<$f>:" -v re="$ret_re" '$0 ~ f { on = 1; next }
        on && /^$/ { exit } on && ($3 "\t" $4) ~ re { sub(":", "", $1); sub(/^ */, "", $1); print $1 }')
    off=$(( 0x${at:-0} - (0x${start:-0} & ~fbit) ))
    rets="$rets $f $dv/$gv at +$doff/+$off"
    [ -n "$gv" ] && [ "$dv" = "$gv" ] && [ "$doff" = "$off" ] && [ -n "$at" ] || bad=1
done
ok $bad "the first return's arg1 is gdb's finish value, its arg0 the return's offset in objdump (D/oracle:$rets)"

# 25: the probed functions' text when the D program stops (usdtdemo has exited): the ELF
# file's bytes, as gdb reads them from the file
bad=0 nt=0
for w in $texts; do
    a=${w%%:*} len=${w##*:}
    live=$(awk -v a="$(printf '%#x' $a)" '$1 == "TEXT" && $2 == a { print $3 }' "$tmp/gdb.out" 2>/dev/null)
    file=$(gdb-multiarch -batch -nx "$prog" -ex "python print(bytes(gdb.selected_inferior().read_memory($a, $len)).hex())" 2>/dev/null | tail -1)
    nt=$((nt + 1))
    [ -n "$live" ] && [ "$live" = "$file" ] || { bad=1; echo "# $a: text $live, ELF $file"; }
done
ok $bad "after usdtdemo exited, its $nt probed functions' text is the ELF file's again (no trap left)"

# 26-28: what the host refuses, in DTrace's words, before anything reaches the board
refuse() {     # refuse DESCRIPTION EXPECTED-TEXT
    "$H/dcompile" --elf "$prog" -T usdtdemo -n "$1 { @ = count(); }" -o "$tmp/r.dobj" > "$tmp/refuse" 2>&1
    grep -qF "$2" "$tmp/refuse" || { sed 's/^/# /' "$tmp/refuse"; return 1; }
}
refuse 'pid$target::nosuch:entry' 'probe description pid$target::nosuch:entry does not match any probes'
ok $? "a pid probe on a function usdtdemo does not have: 'does not match any probes'"
refuse "pid\$target::$noentry:entry" "pid\$target:usdtdemo:$noentry:entry: $noentry cannot be probed: its first instruction cannot be run out of line"
ok $? "an entry whose first instruction the kernel cannot displace ($noentry_why): 'cannot be probed'"
refuse "pid\$target::$noret:return" "pid\$target:usdtdemo:$noret:return: $noret cannot be probed: it can leave by a tail call or an indirect jump"
ok $? "a return the kernel cannot run alone ($noret_why): 'cannot be probed'"

# 29-32: the pid probes over the capture: the same counts and return values (entry arguments are
# not in FUNC_ENTER: the ARGS lines are left out)
"$H/dtrace" -q --elf "$prog" -i "$tmp/run.kev" -c usdtdemo -s "$tmp/pid.d" 2> "$tmp/pidreplay.err" |
    grep -E '^(COUNT|RET) ' | sort > "$tmp/pidreplay"
grep -E '^(COUNT|RET) ' "$tmp/pid.out" | sort > "$tmp/pidboard"
diff "$tmp/pidboard" "$tmp/pidreplay" > "$tmp/d5" && [ "$(wc -l < "$tmp/pidreplay")" = 6 ]
ok $? "dtrace -i over the capture gives the board's pid counts and return values ($(wc -l < "$tmp/pidreplay") lines)"
if [ -s "$tmp/d5" ]; then sed 's/^/# /' "$tmp/d5" | head -10; fi
# The same with neither --elf nor -c: the file by build id, and $target the only process of
# the capture that ran usdtdemo, the program the pid$target probes name.
"$H/dtrace" -q -i "$tmp/run.kev" -s "$tmp/pid.d" 2> "$tmp/pidbyid.err" |
    grep -E '^(COUNT|RET) ' | sort > "$tmp/pidbyid"
diff "$tmp/pidboard" "$tmp/pidbyid" > /dev/null && [ "$(wc -l < "$tmp/pidbyid")" = 6 ]
ok $? "dtrace -i without --elf or -c gives the same pid counts and return values (\$target bound from the capture)"
[ $? = 0 ] || sed 's/^/# stderr: /' "$tmp/pidbyid.err" | head -5
# A capture that holds FUNC and USDT events (traceprinter's count) draws no "do not fire" note
nev=$("$H/traceprinter" "$tmp/run.kev" 2>/dev/null | grep -c 'FUNC_ENTER\|USDT')
[ "$nev" -gt 0 ] && ! grep -q 'do not fire over this capture' "$tmp/replay.err" "$tmp/pidbyid.err"
ok $? "over a capture with $nev FUNC_ENTER and USDT events, dtrace -i gives no \"do not fire\" note"
# $target in a predicate alone names no program: said, with the processes to choose from
"$H/dtrace" -q -i "$tmp/run.kev" -n 'kercall:::entry /pid == $target/ { @ = count(); }' \
    > /dev/null 2> "$tmp/notarget.err"
rc=$?
[ $rc = 1 ] && grep -q 'give -c NAME or -p PID.*usdtdemo (pid [0-9]*)' "$tmp/notarget.err"
ok $? "\$target with no pid probe and no -c over a capture: refused (rc $rc), naming the processes"
[ $? = 0 ] || sed 's/^/# /' "$tmp/notarget.err" | head -3

# 33: kevstat's function calls over the same capture (its FUNC events, named from the ELF
# files the capture ran): each probed function's entries and returns as D counted them
"$H/kevstat" -s funcs "$tmp/run.kev" > "$tmp/funcs" 2>&1
bad=0 calls=""
for f in $pidfuncs; do
    read -r e r < <(awk -v f="$f" '$1 == f { print $2, $3 }' "$tmp/funcs")
    d=$(awk -v f="$f" '$1 == "COUNT" && $2 == f { print $3 }' "$tmp/pid.out")
    dr=$(awk -v f="$f-return" '$1 == "COUNT" && $2 == f { print $3 }' "$tmp/pid.out")
    calls="$calls $f ${e:-?}/${r:-?}"
    [ -n "$d" ] && [ "${e:-}" = "$d" ] && [ "${r:-}" = "$dr" ] || bad=1
done
ok $bad "kevstat -s funcs over the capture: each function's entries and returns as D counted them ($calls)"
if [ $bad != 0 ]; then sed 's/^/# /' "$tmp/funcs" | head -10; fi

# 34: what only the kernel can refuse, in DTrace's words, nothing placed: a pid probe on a
# process that does not exist, and on one that runs another program (pid 1 is dtrace). A boot
# each, refused at enabling (about half a second).
bad=0
for want in 'pid999|failed to grab process 999: no such process' 'pid1|process 1 does not run usdtdemo'; do
    prov=${want%%|*}
    "$H/dcompile" --elf "$prog" -n "$prov::step_plain:entry { @ = count(); }" -o "$tmp/k.dobj" > "$tmp/k.err" 2>&1 || bad=1
    (cd "$tmp" && QEMU_ARGS="dtrace -c usdtdemo $tmp/k.dobj" QEMU_ICOUNT=1 \
        QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" > "$tmp/kref" 2>&1)
    grep -qF "dtrace: could not enable tracing: $prov:usdtdemo:step_plain:entry: ${want#*|}" "$tmp/kref" &&
        ! grep -q '^usdtdemo: passed' "$tmp/kref" || { bad=1; tail -4 "$tmp/kref" | sed 's/^/# /'; }
done
ok $bad "the kernel refuses a pid probe on a process that does not exist or runs another program, and runs nothing"
fi

# 35-37: is-enabled (sys/sdt.h's semaphores, docs/usdt.md): demo:::costly computes its argument
# only under USDT_ENABLED, and the program counts how often it did. Its semaphore, as
# readelf -n and gdb's info probes give it, is the program's variable (nm); enabled (the boot
# above) the guarded code ran on every pass and D saw each; with only demo:::done enabled it
# never ran; and a note whose semaphore is not the one usdtdemo's own note names is refused.
sem_r=$(readelf -n "$prog" | awk '/Name: costly/ { n = 1 } n && /Semaphore:/ { print $NF; exit }')
sem_g=$(gdb-multiarch -q -batch -ex 'info probes' "$prog" 2>/dev/null | awk '$1 == "stap" && $3 == "costly" { print $5 }')
sem_n=$(${cross}nm "$prog" | awk '$3 == "demo_costly_semaphore" { print "0x" $1 }')
check "demo:::costly's semaphore: readelf $sem_r, gdb $sem_g, the program's variable $sem_n" \
    '[ -n "$sem_n" ] && [ "$((sem_r))" = "$((sem_n))" ] && [ "$((sem_g))" = "$((sem_n))" ]'
check "enabled, the is-enabled code ran on every pass (the program's count ${pc:-?} of 30) and D saw each ($(v costly), arguments summed $(v costly-arg0) of 465)" \
    '[ "${pc:-}" = 30 ] && [ "$(v costly)" = 30 ] && [ "$(v costly-arg0)" = 465 ]'
"$H/dcompile" --elf "$prog" -q -n 'demo:::done { @ = count(); } END { printa("DONE %@d\n", @); }' -o "$tmp/off.dobj" 2> "$tmp/off.err" ||
    sed 's/^/# /' "$tmp/off.err"
(cd "$tmp" && QEMU_ARGS="dtrace -c usdtdemo $tmp/off.dobj" QEMU_ICOUNT=1 \
    QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" > "$tmp/off" 2>&1)
python3 "$here/test/qemu/usdt_note.py" "$prog" "$tmp/badsem.elf" costly sem=pc
mkdir -p "$tmp/bad" && cp "$tmp/badsem.elf" "$tmp/bad/usdtdemo.elf"
"$H/dcompile" --elf "$tmp/bad/usdtdemo.elf" -q -n 'demo:::costly { @ = count(); }' -o "$tmp/badsem.dobj" 2> "$tmp/badsem.err" ||
    sed 's/^/# /' "$tmp/badsem.err"
(cd "$tmp" && QEMU_ARGS="dtrace -c usdtdemo $tmp/badsem.dobj" QEMU_ICOUNT=1 \
    QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" > "$tmp/badsem" 2>&1)
check "disabled, it never ran ($(grep -o 'costly [0-9]*$' "$tmp/off" | head -1)) while demo:::done fired; a semaphore that is not the one usdtdemo's image names is refused" \
    'grep -q "usdtdemo: passed step 30 .*, costly 0" "$tmp/off" && con_of dtrace < "$tmp/off" | grep -q "^DONE 1$" &&
     grep -q "could not enable tracing: demo:usdtdemo::costly: semaphore 0x[0-9a-f]* is not a semaphore of usdtdemo" "$tmp/badsem" &&
     ! grep -q "usdtdemo: passed" "$tmp/badsem"'
[ $? = 0 ] || tail -n 3 "$tmp/off" "$tmp/badsem" | sed 's/^/# /'

# 38: A64's pid-entry instructions, a function opening with each (usdtdemo shapes): every
# result right (the program's check), and D's counts, arguments and return values on each
# the program's (its own sums; a return value's sum taken mod 2^32, as the program's)
if [ "$insn" != 4 ]; then
    n=$((n + 1)); echo "ok $n - ${TAP_PREFIX:-}A64's pid-entry instructions # SKIP not an A64 board"
else
    cat > "$tmp/shapes.d" <<'D'
#pragma D option quiet
pid$target::shape_*:entry { @c[probefunc] = count(); @a[probefunc] = sum(arg0); }
pid$target::shape_*:return { @n[probefunc] = count(); @r[probefunc] = sum((unsigned)arg1); }
END { printa("SHAPE %s C %@d\n", @c); printa("SHAPE %s A %@d\n", @a); printa("SHAPE %s N %@d\n", @n);
    printa("SHAPE %s R %@d\n", @r); }
D
    "$H/dcompile" --elf "$prog" -T usdtdemo -s "$tmp/shapes.d" -o "$tmp/shapes.dobj" 2> "$tmp/shapes.err" ||
        sed 's/^/# /' "$tmp/shapes.err"
    (cd "$tmp" && QEMU_ARGS="dtrace -c usdtdemo $tmp/shapes.dobj ;; usdtdemo shapes" QEMU_ICOUNT=1 \
        QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} "$here/scripts/qemu-run.sh" "$img" > "$tmp/shapes" 2>&1)
    firsts=$(${cross}objdump -d "$prog" | awk '/^[0-9a-f]+ <shape_[a-z_]+>:$/ { f = 1; next }
        f && /^ +[0-9a-f]+:/ { if ($3 != ".word") print $3; f = 0 }' | sort -u | tr '\n' ' ')
    con_of dtrace < "$tmp/shapes" | awk '$1 == "SHAPE" { print $2, $3, $4 }' | sort > "$tmp/dshapes"
    grep -o 'usdtdemo: shape [a-z_]* calls [0-9]* args [0-9]* results [0-9]*' "$tmp/shapes" |
        awk '{ print $3, "C", $5; print $3, "A", $7; print $3, "N", $5; print $3, "R", $9 }' |
        sort > "$tmp/pshapes"
    nsh=$(awk '$2 == "C"' "$tmp/pshapes" | wc -l)
    bad=$(join -j1 <(awk '{ print $1 "/" $2, $3 }' "$tmp/pshapes" | sort) \
                   <(awk '{ print $1 "/" $2, $3 }' "$tmp/dshapes" | sort) |
          awk '{ d = $3; if ($1 ~ /\/R$/) d = d % 4294967296; if (d != $2) print $1, $2, $3 }')
    check "A64's pid-entry instructions ($firsts): each of $nsh functions opening with one fired on every call, arguments and return values the program's, every result right" \
        '[ "$nsh" -ge 10 ] && [ -z "$bad" ] && [ "$(wc -l < "$tmp/dshapes")" = "$(wc -l < "$tmp/pshapes")" ] &&
         grep -q "usdtdemo: shapes 0 wrong" "$tmp/shapes"'
    [ -z "$bad" ] || echo "$bad" | sed 's/^/# D differs: /'
fi
