#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The idioms of DTrace users' toolbox scripts, live on the board and over the same boot's
# capture, as a user runs them (make dtrace APPS=acq's boot: appinit, acq and the tracelogger
# with stack samples; then build/host/dtrace -i with no --kernel: the kernel image is found by
# the capture's build id). One script of our own uses each construct: a script's
# `#pragma D option bufsize=16k` (the board lowers it to the 8k one read takes, and says so),
# aggregations as ?: operands (OPT_x ? @c[...] = count() : 1;), `mpid and `ncpus (kernel
# variables, which a capture determines: the last pid created, its CPUs), zonename, the
# syscall provider (syscall::<call>:entry by probefunc, as the Toolkit counts calls), and
# func( )/mod( )/%a of kernel pcs at profile-997 samples. Truths: the two runs' outputs equal
# byte for byte; acq's pid as appinit reports it ("acq (pid N) finished") is `mpid at acq's
# exec-success (Solaris's mpid: the last pid given) and pid there; one CPU; the global zone
# (Solaris's name on a system without zones); the kernel samples named as kernel functions;
# the syscall counts equal to kercall's over the capture and to acq's own counts of its calls.
# Over the capture a kernel variable the capture does not determine (`hp_avenrun) is said
# once, not an error at every firing. The boot is make dtrace's (dtrace -K: the capture spans
# the program's go and stop, its DPROG events), and the script leaves nothing out: BEGIN's and
# END's context and times, the first ticks, every kernel call and switch of dtrace, appinit and
# the tracelogger (the calls they make; a clause at every kernel call would leave the board
# no idle time, whose samples the func( ) check needs), and an exit( ) before the workload
# ends, after which END comes at the stop; a printa( ) and trunc( ) at each tick, at 20 reads a
# second (what each read shows is what fired before the board's consumer read it);
# the outputs must still be equal byte for byte, and BEGIN run as the board's dtrace (pid 1 on
# the console, the capture's DPROG events' thread). $pid is that pid both ways; progenyof( ) at
# acq's exec follows acq's parents (appinit's report, the console's pids); `utsname is the
# capture's header as traceprinter prints it. One boot of about 5 s (QEMU_ICOUNT=exact:
# the samples come at the same instructions every run), and a second as long for a declared
# self-> associative array (the last part says why it has its own).
# The board's files are named relative to $tmp, QEMU's directory: the boot's instructions do not
# depend on TMPDIR's length, so the samples (6 in idle_main on mps2-an385) land the same everywhere.
#   test/qemu/test_dtrace_toolbox.sh BUILD_DIR HOST_DIR
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
TAP_PREFIX="$board: "
img=$B/acqparity.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..22"

cat > "$tmp/toolbox.d" <<'D'
#pragma D option quiet
#pragma D option bufsize=16k
#pragma D option switchrate=20hz

inline int OPT_counts = 1;
inline int OPT_never = 0;

BEGIN
{
	printf("BEGIN pid %d tid %d execname %s vtimestamp %d\n", pid, tid, execname, vtimestamp);
	start = timestamp;
}

kercall::Proc*:entry, kercall::TraceEvent:entry, kercall::DTrace:entry,
kercall::ClockTime:entry, kercall::ThreadSleep:entry
{
	@calls[execname, probefunc] = count();
}

kercall::Proc*:return, kercall::TraceEvent:return, kercall::DTrace:return
/errno/
{
	@errs[execname, probefunc, errno] = count();
}

syscall::ThreadSleep:entry, syscall::Sem*:entry
/pid == $target/
{
	@sys[probefunc] = count();
}

sched:::off-cpu
{
	@off[execname] = count();
	@offtime[execname] = sum(vtimestamp);
}

sched:::on-cpu
/execname == "acq"/
{
	@between[execname] = count();
}

tick-50ms
/ticks++ < 3/
{
	printf("tick %d at %d ns\n", ticks, timestamp - start);
	printa("on-cpu before the read %s %@d\n", @between);
	trunc(@between);
}

proc:::exec-success
/execname == "acq"/
{
	live = 1;
	printf("exec %s pid %d mpid %d ncpus %d zone %s target %d\n", execname, pid, `mpid, `ncpus,
	    zonename, $target);
}

proc:::exit
/execname == "acq"/
{
	live = 0;
	printf("exit %s mpid %d\n", execname, `mpid);
	exit(0);
}

sched:::on-cpu
/live/
{
	OPT_counts ? @on[execname] = count() : 1;
	OPT_never ? @on["never"] = count() : 1;
	OPT_never ? 1 : (@zone[zonename] = count());
}

profile-997
/arg0/
{
	@kfunc[func(arg0)] = count();
	@kmod[mod(arg0)] = count();
	@kpc[arg0] = count();
}

BEGIN
{
	printf("consumer $pid %d\n", $pid);
	printf("uname %s|%s|%s|%s|%s|%s|%s\n", `utsname.sysname, `utsname.nodename,
	    `utsname.release, `utsname.version, `utsname.machine, `architecture, `platform);
}

proc:::exec-success
/execname == "acq"/
{
	printf("progenyof at acq's exec: %d %d %d %d %d %d %d %d %d %d\n", progenyof(0),
	    progenyof(1), progenyof(2), progenyof(3), progenyof(4), progenyof(5), progenyof(6),
	    progenyof(7), progenyof(8), progenyof(9));
}


END
{
	printf("END pid %d tid %d execname %s after %d ns, %d ticks\n", pid, tid, execname,
	    timestamp - start, ticks);
	printa("calls %s %s %@d\n", @calls);
	printa("errors %s %s %d %@d\n", @errs);
	printa("syscall %s %@d\n", @sys);
	printa("off-cpu %s %@d\n", @off);
	printa("vtimestamp at off-cpu %s %@d\n", @offtime);
	printa("on-cpu %s %@d\n", @on);
	printa("zone %s %@d\n", @zone);
	printa("func %a %@d\n", @kfunc);
	printa("mod %a %@d\n", @kmod);
	printa("pc %a %@d\n", @kpc);
}
D
"$H/dcompile" --kernel "$img" -T acq -s "$tmp/toolbox.d" -o "$tmp/toolbox.dobj" > "$tmp/cc.err" 2>&1
ok $? "the script compiles for the board: ?: aggregations, \`mpid, \`ncpus, zonename, func/mod of kernel pcs"
[ -s "$tmp/cc.err" ] && sed 's/^/# /' "$tmp/cc.err"

(cd "$tmp" && QEMU_ICOUNT=exact QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} \
    QEMU_ARGS="dtrace -K -c appinit toolbox.dobj ;; appinit acq ;; tracelogger -d1 -p 997 -f trace.kev" \
    "$here/scripts/qemu-run.sh" "$img" > "$tmp/run.out" 2>&1)
rc=$?
con_of dtrace < "$tmp/run.out" | grep -v '^kernel: ' > "$tmp/dtrace.out"
grep -v '^dtrace: ' "$tmp/dtrace.out" | "$H/stacksym" -k "$img" "${img%.elf}"/*.elf > "$tmp/live.out"
check "the boot ran to its end, acq and appinit without failures (status $rc)" \
    "[ $rc = 0 ] && grep -qE \"\$(con_from appinit)appinit: done, 0 failures\$\" '$tmp/run.out'"
[ $rc = 0 ] || tail -8 "$tmp/run.out" | sed 's/^/# /'
check "the board lowers the script's bufsize=16k to the 8k one read takes and says so" \
    "grep -q '^dtrace: buffer size lowered to 8k: this dtrace reads 8k at once, as often as it fills (asked 16k' '$tmp/dtrace.out'"

(cd "$tmp" && "$H/dtrace" -T acq -i "$tmp/trace.kev" -s "$tmp/toolbox.d" > "$tmp/cap.out" 2> "$tmp/cap.err")
crc=$?
check "dtrace -i over the same boot's capture, no --kernel (the image found by build id), exits 0 with nothing on stderr ($crc)" \
    "[ $crc = 0 ] && [ ! -s '$tmp/cap.err' ]"
sed 's/^/# stderr: /' "$tmp/cap.err" | head -4
cmp -s "$tmp/live.out" "$tmp/cap.out"
ok $? "live and over the capture the output is the same, byte for byte ($(wc -l < "$tmp/live.out") lines)"
diff "$tmp/live.out" "$tmp/cap.out" | head -10 | sed 's/^/# /'

# The span: the board's dtrace is pid 1 (the kernel's console prefix); the capture's DPROG
# events (kevtable's fields) are its go and its stop, in its thread (who 0x10001: pid 1, tid
# 1), and BEGIN ran there.
"$H/kevtable" "$tmp/trace.kev" 2>/dev/null | grep DPROG > "$tmp/dprog.txt"
check "the capture holds the program's go and stop (DPROG), in the board's dtrace's thread ($(tr '\n' ';' < "$tmp/dprog.txt" | cut -c1-160))" \
    "[ \$(wc -l < '$tmp/dprog.txt') = 2 ] && head -1 '$tmp/dprog.txt' | grep -q 'what=1(go) timers=0x[0-9a-f]* who=0x10001\$' && tail -1 '$tmp/dprog.txt' | grep -q 'what=2(stop) timers=0x[0-9a-f]* who=0x10001\$'"
check "BEGIN and END ran in the board's dtrace (pid 1, as its console prefix says), vtimestamp 0 at BEGIN" \
    "grep -q '^1/dtrace: ' '$tmp/run.out' && grep -qx 'BEGIN pid 1 tid 1 execname dtrace vtimestamp 0' '$tmp/cap.out' && grep -q '^END pid 1 tid 1 execname dtrace after [0-9]* ns' '$tmp/cap.out'"
check "nothing left out: dtrace's, appinit's and the tracelogger's own kernel calls are counted, and three ticks" \
    "grep -qE '^calls dtrace ProcSpawn [1-9]' '$tmp/cap.out' && grep -qE '^calls appinit ProcSpawn [1-9]' '$tmp/cap.out' && grep -qE '^calls tracelogger TraceEvent [1-9]' '$tmp/cap.out' && grep -q '^tick 3 at ' '$tmp/cap.out'"

acq=$(sed -n "s#^[0-9]*/appinit: appinit: acq (pid \([0-9]*\)) finished\$#\1#p" "$tmp/run.out")
check "\`mpid at acq's exec-success is acq's pid as appinit reports it (${acq:-?}: the last pid given), and pid there; \`ncpus 1; the global zone; \$target 0 there (-T acq: bound at acq's first kernel call, d/dtarget.h, live and over the capture)" \
    "grep -qx 'exec acq pid ${acq:-x} mpid ${acq:-x} ncpus 1 zone global target 0' '$tmp/cap.out' && grep -qx 'exit acq mpid ${acq:-x}' '$tmp/cap.out'"
check "aggregations as ?: operands count in the arm chosen only (acq's on-cpu, no 'never' row; zonename a key)" \
    "grep -qE '^on-cpu acq [1-9][0-9]*\$' '$tmp/cap.out' && ! grep -q never '$tmp/cap.out' && grep -qE '^zone global [1-9]' '$tmp/cap.out'"
# func( ), mod( ) and %a of kernel pcs, on a boot of their own: the kernel's pcs a profile
# sample sees are the idle thread's (no sample interrupts the kernel itself), and acq leaves
# the board idle for 0.7 % of its run, where a 997 Hz grid found 0 to 14 samples as the code
# moved. Here dtrace alone runs (no -c: the capture ends at its exit( ) after 300 ms), the
# board idle but for its reads. Truths: live and over the capture the same bytes; the raw
# pc the board printed (addr`0x...) is idle_main + its offset as nm reads the image.
cat > "$tmp/kpc.d" <<'D'
profile-997
/arg0/
{
	@kfunc[func(arg0)] = count();
	@kmod[mod(arg0)] = count();
	@kpc[arg0] = count();
}

tick-300ms
{
	exit(0);
}

END
{
	printa("func %a %@d\n", @kfunc);
	printa("mod %a %@d\n", @kmod);
	printa("pc %a %@d\n", @kpc);
}
D
"$H/dcompile" --kernel "$img" -s "$tmp/kpc.d" -o "$tmp/kpc.dobj" > "$tmp/kpc.err" 2>&1 &&
(cd "$tmp" && QEMU_ICOUNT=exact QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} \
    QEMU_ARGS="dtrace -q -K kpc.dobj ;; tracelogger -d1 -p 997 -f kpc.kev" \
    "$here/scripts/qemu-run.sh" "$img" > "$tmp/kpc.run" 2>&1)
krc=$?
con_of dtrace < "$tmp/kpc.run" | grep -E '^(func|mod|pc) ' > "$tmp/kpc.raw"
"$H/stacksym" -k "$img" < "$tmp/kpc.raw" > "$tmp/kpc.live"
"$H/dtrace" -q -i "$tmp/kpc.kev" -s "$tmp/kpc.d" 2>&1 | grep -E '^(func|mod|pc) ' > "$tmp/kpc.cap"
case $board in qemu-virt-a53|raspi3b) nm=aarch64-linux-gnu-nm ;; x86-pc) nm=i686-linux-gnu-nm ;; *) nm=arm-none-eabi-nm ;; esac
idle=$($nm "$img" | sed -n 's/^\([0-9a-f]*\) [tT] idle_main$/\1/p')
raw=$(sed -n 's/^pc addr`0x\([0-9a-f]*\) .*/\1/p' "$tmp/kpc.raw" | tail -1)
off=$([ -n "$idle" ] && [ -n "$raw" ] && printf '%x' $((0x$raw - 0x$idle)))
check "func( ), mod( ) and %a name the idle board's kernel pcs as kernel functions, live and over the capture alike (boot $krc; $(tr '\n' ';' < "$tmp/kpc.cap"))" \
    "[ $krc = 0 ] && [ -s '$tmp/kpc.cap' ] && cmp -s '$tmp/kpc.live' '$tmp/kpc.cap' && grep -qE '^func kernel\`idle_main [1-9][0-9]*\$' '$tmp/kpc.cap' && grep -qE '^mod kernel +[1-9][0-9]*\$' '$tmp/kpc.cap' && ! grep -q '\`0x' '$tmp/kpc.cap'"
check "the pc %a names is the one the board sampled: idle_main+0x${off:-?} where nm puts idle_main at 0x${idle:-?} (raw 0x${raw:-?})" \
    "[ -n '$off' ] && grep -qE '^pc kernel\`idle_main(\\+0x$off)? [1-9]' '$tmp/kpc.cap'"
[ -s "$tmp/kpc.err" ] && sed 's/^/# /' "$tmp/kpc.err"
diff "$tmp/kpc.live" "$tmp/kpc.cap" | head -6 | sed 's/^/# /'

# $pid, progenyof( ) and `utsname (docs/d-subset.md). $pid is the board's dtrace's pid (1, its
# console prefix), live (read when the program runs: the script was compiled on the host) and
# over the capture (its DPROG events' consumer, not the host dtrace's own pid); the Toolkit's
# /pid != $pid/ then leaves out the board's dtrace, whose kernel calls are the only DTrace ones.
check "\$pid is the board's dtrace's pid (1, its console prefix) live and over the capture" \
    "grep -q '^1/dtrace: ' '$tmp/run.out' && grep -qx 'consumer \$pid 1' '$tmp/cap.out'"
"$H/dtrace" -q -i "$tmp/trace.kev" -n 'kercall::DTrace:entry /pid == $pid/ { @["mine"] = count(); }
    kercall::DTrace:entry /pid != $pid/ { @[execname] = count(); }' 2>&1 | grep -v '^$' > "$tmp/pid.out"
check "over the capture /pid == \$pid/ takes the board's dtrace's DTrace calls, /pid != \$pid/ none (only it makes them)" \
    "[ \$(wc -l < '$tmp/pid.out') = 1 ] && grep -qE '^ +mine +[1-9][0-9]*\$' '$tmp/pid.out'"
sed 's/^/# /' "$tmp/pid.out"
# progenyof(N) at acq's exec-success, for N = 0..9: 1 for acq itself, its parent appinit (which
# spawned it: acq's pid as appinit reports it, appinit's its console prefix), the board's dtrace
# (pid 1, which spawned appinit with -c) and the kernel (0: every process's last ancestor, as
# sched is Solaris's); 0 for the rest, the tracelogger (dtrace's child, appinit's sibling) too.
appinit=$(sed -n 's#^\([0-9]*\)/appinit: .*#\1#p' "$tmp/run.out" | head -1)
want="progenyof at acq's exec:"
for k in 0 1 2 3 4 5 6 7 8 9; do
    case $k in 0|1|"$appinit"|"$acq") want="$want 1" ;; *) want="$want 0" ;; esac
done
check "progenyof( ) at acq's exec is 1 for acq (${acq:-?}), appinit (${appinit:-?}), dtrace (1) and the kernel (0), 0 for the others" \
    "[ -n '$acq' ] && [ -n '$appinit' ] && grep -qx \"$want\" '$tmp/cap.out'"
grep "^progenyof" "$tmp/cap.out" | sed 's/^/# /'
# `utsname's members, `architecture and `platform: the capture's header as a traceprinter
# prints it (QNX's own with QNX_TRACEPRINTER, built by ../shared/qnx-tools/build.sh).
if [ -n "${QNX_TRACEPRINTER:-}" ] && [ -x "$QNX_TRACEPRINTER" ]; then
    "$QNX_TRACEPRINTER" -f "$tmp/trace.kev" > "$tmp/tp.out" 2>&1; tp="QNX's traceprinter"
else
    "$H/traceprinter" "$tmp/trace.kev" > "$tmp/tp.out" 2>&1; tp=traceprinter
fi
hdr() { sed -n "s/^ *TRACE_$1:: //p" "$tmp/tp.out" | head -1; }
want="uname $(hdr SYSNAME)|$(hdr NODENAME)|$(hdr SYS_RELEASE)|$(hdr SYS_VERSION)|$(hdr MACHINE)|$(hdr MACHINE)|$(hdr NODENAME)"
check "\`utsname.sysname ... .machine, \`architecture and \`platform are the header's SYSNAME, NODENAME, SYS_RELEASE, SYS_VERSION and MACHINE as $tp prints them ($want)" \
    "[ '$(hdr SYSNAME)' = kev-microkernel ] && grep -qxF '$want' '$tmp/cap.out'"

# A kernel variable the capture does not determine: one clear line, not an error a firing.
"$H/dtrace" -q -i "$tmp/trace.kev" -n 'sched:::on-cpu { @[`hp_avenrun[0]] = count(); }' \
    > "$tmp/hp.out" 2> "$tmp/hp.err"
hrc=$?
said=$(grep -c 'hp_avenrun is kernel memory, which a capture does not hold' "$tmp/hp.err")
check "over the capture \`hp_avenrun at every on-cpu is said once ($said lines), no invalid address error (exit $hrc)" \
    "[ $hrc = 0 ] && [ $said = 1 ] && ! grep -q 'invalid address' '$tmp/hp.err'"

# The syscall provider (docs/d-probes.md): the Toolkit's syscall:::entry /pid == $target/
# count by probefunc, here of the calls acq makes a few tens of times (at every kernel call the
# clause would leave the board no idle time, which the func( ) check needs), against the same
# count by kercall over the same capture, and against acq's own counts: the supervisor sleeps
# once an audit; the supervisor and the logger each take and give the semaphore `report` once
# an audit or a report, and main creates it once.
"$H/dtrace" -q -T acq -i "$tmp/trace.kev" -n 'kercall::ThreadSleep:entry, kercall::Sem*:entry
    /pid == $target/ { @k[probefunc] = count(); } END { printa("syscall %s %@d\n", @k); }' \
    2> "$tmp/ker.err" | grep -v '^$' > "$tmp/ker.out"
grep '^syscall ' "$tmp/cap.out" > "$tmp/sys.out"
check "syscall::'s counts by probefunc are kercall::'s over the same capture ($(wc -l < "$tmp/sys.out") calls)" \
    "[ -s '$tmp/sys.out' ] && cmp -s '$tmp/ker.out' '$tmp/sys.out'"
diff "$tmp/sys.out" "$tmp/ker.out" | head -6 | sed 's/^/# /'
sed -n "s#^[0-9]*/acq: acq: filter: .*logger: \([0-9]*\) reports, supervisor: \([0-9]*\) audits\$#\1 \2#p" \
    "$tmp/run.out" > "$tmp/own.txt"
read -r reports audits < "$tmp/own.txt"
check "acq's ThreadSleeps are its ${audits:-?} audits, its SemWaits and SemPosts its audits and ${reports:-?} reports, one SemCreate (as acq counts them)" \
    "grep -qx 'syscall ThreadSleep ${audits:-x}' '$tmp/sys.out' && grep -qx 'syscall SemWait $((${audits:-0} + ${reports:-0}))' '$tmp/sys.out' && grep -qx 'syscall SemPost $((${audits:-0} + ${reports:-0}))' '$tmp/sys.out' && grep -qx 'syscall SemCreate 1' '$tmp/sys.out'"
sed 's/^/# /' "$tmp/sys.out"

# A declared self-> associative array (the Toolkit's call-depth idiom, j_syscolors.d's
# `self int depth[int]`, self->depth[k]++ at an entry and -= at its return), on a boot of its
# own: a clause added to the toolbox script moves its samples, and the byte-for-byte check
# above is the one to keep simple. Truths: the two runs' outputs
# equal byte for byte; kernel calls do not nest, so each thread is one call deep at most and
# none after its return (one count shared by acq's threads would reach 2: the supervisor
# waits on `report` while the logger holds it); self->last[0], the call each thread entered,
# labels its returns, which must be acq's own counts thread by thread: the supervisor's
# ThreadSleeps and SemWaits its audits, the logger's SemWaits its reports (0.6 s here against
# the first boot's 0.4 s, at host load 2). The same boot holds curthread's one path here.
cat > "$tmp/self.d" <<'D'
#pragma D option quiet

self int depth[int];
self string last[int];

syscall::ThreadSleep:entry, syscall::SemWait:entry
/pid == $target/
{
	self->depth[0]++;
	self->last[0] = probefunc;
	@deepest[tid] = max(self->depth[0]);
}

syscall::ThreadSleep:return, syscall::SemWait:return
/pid == $target && self->last[0] != ""/
{
	self->depth[0] -= self->depth[0] > 0 ? 1 : 0;
	@after[tid] = max(self->depth[0]);
	@calls[tid, self->last[0]] = count();
}

sched:::on-cpu
{
	@ready[curthread->t_cpu->cpu_disp->disp_nrunnable] = count();
}

profile-997
/curthread->t_cpu->cpu_disp->disp_nrunnable/
{
	@occ[cpu] = count();
}

END
{
	printa("depth tid %d deepest %@d after its return %@d\n", @deepest, @after);
	printa("calls tid %d %s %@d\n", @calls);
	printa("ready %d %@d\n", @ready);
	printa("runocc cpu %d %@d\n", @occ);
}
D
"$H/dcompile" --kernel "$img" -T acq -s "$tmp/self.d" -o "$tmp/self.dobj" > "$tmp/scc.err" 2>&1
src=$?
(cd "$tmp" && QEMU_ICOUNT=exact QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} \
    QEMU_ARGS="dtrace -K -c appinit self.dobj ;; appinit acq ;; tracelogger -d1 -p 997 -f self.kev" \
    "$here/scripts/qemu-run.sh" "$img" > "$tmp/self.run" 2>&1)
srun=$?
con_of dtrace < "$tmp/self.run" | grep -v '^kernel: ' | grep -v '^dtrace: ' > "$tmp/self.live"
(cd "$tmp" && "$H/dtrace" -T acq -i "$tmp/self.kev" -s "$tmp/self.d" > "$tmp/self.cap" 2> "$tmp/self.err")
scrc=$?
check "self int depth[int]: compiled for the board ($src), the boot ran ($srun), dtrace -i exits 0 with nothing on stderr ($scrc), and the outputs are the same byte for byte ($(wc -l < "$tmp/self.live") lines)" \
    "[ $src = 0 ] && [ $srun = 0 ] && [ $scrc = 0 ] && [ ! -s '$tmp/self.err' ] && [ -s '$tmp/self.live' ] && cmp -s '$tmp/self.live' '$tmp/self.cap'"
sed 's/^/# /' "$tmp/scc.err" "$tmp/self.err" | head -4
diff "$tmp/self.live" "$tmp/self.cap" | head -6 | sed 's/^/# /'
sed -n "s#^[0-9]*/acq: acq: filter: .*logger: \([0-9]*\) reports, supervisor: \([0-9]*\) audits\$#\1 \2#p" \
    "$tmp/self.run" > "$tmp/self.own"
read -r sreports saudits < "$tmp/self.own"
sup=$(sed -n 's/^calls tid \([0-9]*\) ThreadSleep .*/\1/p' "$tmp/self.cap")
check "each of acq's threads ($(grep -c '^depth' "$tmp/self.cap")) one kernel call deep at most and none after its return" \
    "[ \$(grep -c '^depth tid [0-9]* deepest 1 after its return 0\$' '$tmp/self.cap') -ge 2 ] && ! grep -v '^depth tid [0-9]* deepest 1 after its return 0\$' '$tmp/self.cap' | grep -q '^depth'"
check "self->last[ ] labels each thread's own calls: the supervisor (tid ${sup:-?}) ThreadSleeps and SemWaits its ${saudits:-?} audits, another thread SemWaits the logger's ${sreports:-?} reports (as acq counts them)" \
    "grep -qx 'calls tid ${sup:-x} ThreadSleep ${saudits:-x}' '$tmp/self.cap' && grep -qx 'calls tid ${sup:-x} SemWait ${saudits:-x}' '$tmp/self.cap' && grep -v '^calls tid ${sup:-x} ' '$tmp/self.cap' | grep -qx 'calls tid [0-9]* SemWait ${sreports:-x}'"
sed 's/^/# /' "$tmp/self.cap"
# curthread->t_cpu->cpu_disp->disp_nrunnable (the Toolkit's dispqlen.d and runocc.d): at each
# switch, the threads then READY in the capture's events, the idle thread aside, from the
# program's go to its stop (ready_count.py over traceprinter's text).
"$H/traceprinter" "$tmp/self.kev" > "$tmp/self.txt" 2>/dev/null
python3 "$here/test/tools/ready_count.py" --span "$tmp/self.txt" | sed 's/^/ready /' > "$tmp/ready.want"
grep '^ready ' "$tmp/self.cap" | sort -n -k2 > "$tmp/ready.got"
check "curthread->t_cpu->cpu_disp->disp_nrunnable at each on-cpu: the ready threads traceprinter's events give ($(cut -d' ' -f2- "$tmp/ready.want" | tr '\n' ' ')), with some switches finding two or more; runocc's samples found some" \
    "[ -s '$tmp/ready.want' ] && cmp -s '$tmp/ready.want' '$tmp/ready.got' && [ \$(awk '\$2 >= 2' '$tmp/ready.want' | wc -l) -ge 1 ] && grep -qE '^runocc cpu 0 [1-9]' '$tmp/self.cap'"
diff "$tmp/ready.want" "$tmp/ready.got" | head -6 | sed 's/^/# /'
