#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The incident record (docs/incidents.md), TAP, on one board: a D trigger freezes the flight
# recorder and leaves a record in RAM no reset clears; QEMU's system_reset (over QMP) restarts
# the board and its next boot's tracelogger writes the record out. Truth from outside the code
# under test:
#  - a deadline miss: overrun misses exactly one deadline and says, by its own clock, which
#    period and between which two cycle readings its end event was written; the incident's
#    last user event is that period's end, stamped between them, then the TRIGGER; dtrace -i
#    prints the line the board's dtrace printed live; kevstat, kevreport and kevsql read it;
#  - a fault: gdb opens the core with the program's ELF: bt's first frame is the function and
#    line addr2line gives for the pc the kernel's fault line says, the pc is that pc, the
#    callers are the program's chain; info threads lists the processes the console names; the
#    core kevdump -I read over the gdbstub before the reset is the logger's, byte for byte;
#  - damage: each header word flipped, a body byte flipped, the write cut by a reset (gdb stops
#    it between the body and the header): each refused with its sentence, the boot goes on and
#    the next record is written whole.
#   BOARD=<board> test/qemu/test_incident.sh BUILD_DIR HOST_DIR
set -u
b=$(cd "$1" && pwd)
h=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
TAP_PREFIX="$board: "
img=$b/incident.elf
out=$b/test-incident
rm -rf "$out" && mkdir -p "$out"
cross=$( [ "$board" = qemu-virt-a53 ] || [ "$board" = raspi3b ] && echo aarch64-linux-gnu- || echo arm-none-eabi-)
echo "1..35"

# boot NAME QEMU_ARGS: $img in $out/NAME (its files land there), QMP and gdbstub on sockets of
# its own, QEMU waiting for the QMP client before the guest starts; $qpid, $dir.
boot() {
    dir=$out/$1
    mkdir -p "$dir"
    (cd "$dir" && QEMU_ICOUNT=exact QEMU_TIMEOUT=300 QEMU_ARGS="$2" exec "$here/scripts/qemu-run.sh" \
        "$img" -qmp unix:q.sock,server=on,wait=on -gdb unix:g.sock,server=on,wait=off) \
        >"$out/$1.log" 2>&1 &
    qpid=$!
}
# qmp NAME STEP...: test/tools/qmp_command.py's steps on boot NAME's QMP socket and console.
qmp() {
    local name=$1
    shift
    python3 "$here/test/tools/qmp_command.py" "$out/$name/q.sock" --log "$out/$name.log" \
        --timeout 120 "$@" >>"$out/$name.qmp" 2>&1
}
sym() { nm "$img" | sed -n "s/^0*\([0-9a-f]*\) [A-Za-z] $1\$/\1/p"; }

# ---- a deadline missed once, frozen by D, written out after a reset -------------------------
cat >"$out/miss.d" <<'EOF'
user:::event /arg0 == 1/ { start[arg1] = timestamp; }
user:::event /arg0 == 2 && timestamp - start[arg1] > 2000000/
{
    printf("period %d missed its deadline: it ran %d us\n", arg1,
           (timestamp - start[arg1]) / 1000);
    @missed[execname] = count();
    freeze();
}
EOF
cp "$out/miss.d" "$out/miss.d.keep"
boot miss "dtrace -q -K -c overrun -s ../miss.d ;; tracelogger -d1 -r -f trace.kev ;; overrun 100 99 60"
qmp miss 'wait:incident record 1 written' 'wait:dtrace: period [0-9]* missed' system_reset \
    'wait:tracelogger: incident record 1 |tracelogger: writing incident|refused' quit
wait $qpid
log=$out/miss.log
first=$(sed -n '1,/booting on/p' "$log" | wc -l)
boot1=$(awk '/booting on/ { n++ } n == 1' "$log")
boot2=$(awk '/booting on/ { n++ } n == 2' "$log")
mline=$(printf '%s\n' "$boot1" | grep 'overrun: period [0-9]* missed its deadline')
period=$(printf '%s\n' "$mline" | sed -n 's/.*period \([0-9]*\) missed.*/\1/p')
endc=$(printf '%s\n' "$mline" | sed -n 's/.*ended at cycles 0x\([0-9a-f]*\),.*/\1/p')
wrote=$(printf '%s\n' "$mline" | sed -n 's/.*written by 0x\([0-9a-f]*\) .*/\1/p')
check "overrun missed one deadline by its own clock (period ${period:-none}), in the boot before the reset" \
    "printf '%s\n' \"\$boot1\" | grep -q '^[0-9]*/overrun: overrun: 100 periods, missed 1\$' && [ '$period' = 99 ]"
check "the kernel wrote record 1 at the trigger; after the reset it held it and the logger wrote it out" \
    "printf '%s\n' \"\$boot1\" | grep -q '^kernel: incident record 1 written: freeze( ) at user:::event, clause 2' &&
     printf '%s\n' \"\$boot2\" | grep -q '^kernel: incident record 1 from the last boot: freeze( ) at user:::event, clause 2' &&
     printf '%s\n' \"\$boot2\" | grep -q 'tracelogger: incident record 1 (freeze( ) at user:::event, clause 2) written to incident.kev' &&
     [ -s $out/miss/incident.kev ] && [ -s $out/miss/incident.core ]"
"$h/traceprinter" "$out/miss/incident.kev" >"$out/miss.txt" 2>"$out/miss.tp.err"
check "traceprinter reads incident.kev whole (status 0, its trailer's counts hold)" "[ \$? = 0 ]"
lastusr=$(grep 'USREVENT:EVENT:2 ' "$out/miss.txt" | tail -1)
t=$(printf '%s\n' "$lastusr" | sed -n 's/^t:0x\([0-9a-f]*\) .*/\1/p')
d0=$(printf '%s\n' "$lastusr" | sed -n 's/.* d0:0x\([0-9a-f]*\) .*/\1/p')
check "its last end event is period $period's (d0 0x${d0:-?}), stamped at 0x${t:-?}: between the program's readings 0x${endc:-?} and 0x${wrote:-?}" \
    "[ -n '$t' ] && [ \$((16#$d0)) = $period ] && [ \$((16#$t)) -ge \$((16#$endc)) ] && [ \$((16#$t)) -le \$((16#$wrote)) ]"
trig=$(grep -v 'CONTROL' "$out/miss.txt" | grep '^t:' | tail -1)
check "the event after it, the capture's last, is the TRIGGER naming the probe, the clause and record 1" \
    "printf '%s\n' \"\$trig\" | grep -q 'SYSTEM  :TRIGGER.*action:0 (freeze) clause:2 .*record:1 probe:\"user:::event\"' &&
     [ \"\$(grep -v CONTROL $out/miss.txt | grep '^t:' | tail -2 | head -1)\" = \"\$lastusr\" ]"
live=$(printf '%s\n' "$boot1" | sed -n 's/^[0-9]*\/dtrace: \(period .*\)$/\1/p')
"$h/dtrace" -i "$out/miss/incident.kev" >"$out/miss.dtrace" 2>&1
check "dtrace -i over it prints the clause's line as the board's dtrace printed it live: '${live:-none}'" \
    "[ \$? = 0 ] && [ -n \"\$live\" ] && grep -qxF \"\$live\" $out/miss.dtrace"
check "and its aggregation as the consumer prints it at its end (overrun, 1)" \
    "grep -qE '^ +overrun +1\$' $out/miss.dtrace"
ev=$(sed -n 's/^events: \([0-9]*\) in .*/\1/p' "$out/miss.txt")
"$h/kevstat" "$out/miss/incident.kev" >"$out/miss.kevstat" 2>&1
check "kevstat reads it: its $ev events, none lost" "grep -q '^$ev events, 0 lost' $out/miss.kevstat"
"$h/kevreport" -o "$out/miss.html" "$out/miss/incident.kev" >"$out/miss.kevreport" 2>&1
check "kevreport draws it" "[ \$? = 0 ] && [ -s $out/miss.html ]"
"$h/kevsql" "$out/miss/incident.kev" "SELECT count(*) FROM event WHERE name = 'TRIGGER'" \
    >"$out/miss.sql" 2>&1
check "kevsql finds its one TRIGGER" "[ \$? = 0 ] && grep -qx ' *1 *' $out/miss.sql"
gdb-multiarch -nx -batch -ex 'info threads' -ex bt "$b/incident/overrun.elf" \
    "$out/miss/incident.core" >"$out/miss.gdb" 2>&1
pids=$(sed -n 's/^\([0-9]*\)\/\(dtrace\|tracelogger\|overrun\): .*/\1/p' "$log" | sort -un | tr '\n' ' ')
lwps=$(sed -n 's/^[* ] *[0-9]* *LWP \([0-9]*\) .*/\1/p' "$out/miss.gdb" | while read -r l; do echo $((l >> 16)); done | sort -un | tr '\n' ' ')
check "gdb's info threads lists the processes the console names (pids $pids), the trigger's thread first" \
    "[ -n '$pids' ] && [ '$lwps' = '$pids' ] && grep -q '^\* 1 *LWP $(( ${period:+3} << 16 | 1 ))' $out/miss.gdb"
check "gdb's bt in the triggering thread reaches overrun's main" "grep -q '^#[0-9].* main .*overrun/main.c' $out/miss.gdb"

# ---- a fault, read by kevdump over the gdbstub, then after a reset --------------------------
cat >"$out/fault.d" <<'EOF'
proc:::fault { printf("%s faulted: signal %d\n", execname, arg0); freeze(); }
EOF
boot fault "dtrace -q -K -c appinit -s ../fault.d ;; appinit stackfault overrun ;; overrun 1 1 60 ;; tracelogger -d1 -r -f trace.kev"
qmp fault 'wait:incident record 1 written'
"$h/kevdump" -g "unix:$out/fault/g.sock" -I -a "0x$(sym kev_incident_map)" -o "$out/fault/probe" \
    >"$out/fault.kevdump" 2>&1
kd=$?
qmp fault system_reset 'wait:tracelogger: incident record 1 |tracelogger: writing incident|refused' quit
wait $qpid
check "kevdump -I reads the record over the gdbstub with no reboot" \
    "[ $kd = 0 ] && grep -q '^kevdump: incident record 1 (freeze( ) at proc:::fault, clause 1)' $out/fault.kevdump"
check "the next boot's logger writes the same core, byte for byte" \
    "[ -s $out/fault/incident.core ] && cmp -s $out/fault/probe.core $out/fault/incident.core"
fline=$(grep 'kernel: process [0-9]* (stackfault) killed: .*pc 0x' "$out/fault.log" | head -1)
fpc=$(printf '%s\n' "$fline" | sed -n 's/.*pc 0x\([0-9a-f]*\) in thread.*/\1/p')
fpid=$(printf '%s\n' "$fline" | sed -n 's/.*process \([0-9]*\) (stackfault).*/\1/p')
fpc=$( [ -n "$fpc" ] && printf '%x' $((16#$fpc)) )
where=$("${cross}addr2line" -f -e "$b/incident/stackfault.elf" "0x${fpc:-0}" | tr '\n' ' ')
fn=$(printf '%s\n' "$where" | cut -d' ' -f1)
line=$(printf '%s\n' "$where" | cut -d' ' -f2 | sed 's/.*\///')
gdb-multiarch -nx -batch -ex 'info threads' -ex bt -ex 'p/x $pc' "$b/incident/stackfault.elf" \
    "$out/fault/incident.core" >"$out/fault.gdb" 2>&1
check "gdb's bt names the faulting function and line addr2line gives the kernel's pc 0x${fpc:-?} ($fn, $line)" \
    "[ -n '$fpc' ] && grep -q '^#0 .* in $fn (.*) at .*/$line\$' $out/fault.gdb"
check "gdb's pc is the kernel's fault line's" "grep -qi '^\\\$1 = 0x$fpc\$' $out/fault.gdb"
check "the callers are the program's chain (fault_b, fault_a, main)" \
    "grep -q '^#1 .* fault_b ' $out/fault.gdb && grep -q '^#2 .* fault_a ' $out/fault.gdb && grep -q '^#3 .* main ' $out/fault.gdb"
check "the current thread is the faulting one (pid ${fpid:-?}), and info threads lists all five processes' threads" \
    "grep -q '^\* 1 *LWP $(( ${fpid:-0} << 16 | 1 )) ' $out/fault.gdb && [ \$(grep -c '^[* ] *[0-9]* *LWP ' $out/fault.gdb) = 5 ]"
"$h/traceprinter" "$out/fault/incident.kev" >"$out/fault.txt" 2>&1
check "the FAULT event in incident.kev carries the same pc" \
    "grep -q 'SYSTEM  :FAULT .* pc 0x$fpc ' $out/fault.txt"

# ---- panic( ) and breakpoint( ): destructive, -w; the record first ---------------------------
boot panic "dtrace -q -w -K -c appinit -n 'proc:::fault { printf(\"%s faulted\\n\", execname); panic(); }' ;; appinit stackfault ;; tracelogger -d1 -r -f trace.kev"
qmp panic 'wait:halted in place' system_reset 'wait:tracelogger: incident record 1 |tracelogger: writing incident|refused' quit
wait $qpid
check "panic( ): the record written, DTrace's panic message, the board halted in place; written out after the reset" \
    "grep -q '^kernel: incident record 1 written: panic( ) at proc:::fault' $out/panic.log &&
     grep -q '^kernel panic: dtrace: panic action at probe proc:::fault (clause 1)\$' $out/panic.log &&
     grep -q 'tracelogger: incident record 1 (panic( ) at proc:::fault, clause 1) written' $out/panic.log"
"$h/dtrace" -i "$out/panic/incident.kev" >"$out/panic.dtrace" 2>&1
check "dtrace -i prints the clause's line the panic kept the live consumer from printing" \
    "grep -qx 'stackfault faulted' $out/panic.dtrace && ! grep -q '/dtrace: stackfault faulted' $out/panic.log"
boot nodestr "dtrace -q -c overrun -n 'BEGIN { breakpoint(); }' ;; overrun 1 1 0"
qmp nodestr 'wait:Destructive actions not allowed|pid 1 exited' quit
wait $qpid
check "without -w: Destructive actions not allowed, and no record" \
    "grep -q 'dtrace: could not enable tracing: Destructive actions not allowed' $out/nodestr.log &&
     ! grep -q 'incident record' $out/nodestr.log"
boot brk "dtrace -q -w -c overrun -n 'BEGIN { breakpoint(); }' ;; overrun 1 1 0"
qmp brk 'wait:breakpoint action at probe dtrace:::BEGIN'
gdb-multiarch -nx -batch -ex "target remote $out/brk/g.sock" -ex 'set var kdt_breakpoint_hold = 0' \
    -ex detach "$img" >"$out/brk.gdb" 2>&1
qmp brk 'wait:pid 1 exited|kernel panic'
wait $qpid
check "breakpoint( ): the record, the CPU held until gdb clears kdt_breakpoint_hold, then the run ends as usual" \
    "grep -q '^kernel: incident record 1 written: breakpoint( ) at dtrace:::BEGIN' $out/brk.log &&
     grep -q 'breakpoint at probe dtrace:::BEGIN resumed' $out/brk.log &&
     grep -q 'overrun: 1 periods, missed 0' $out/brk.log && grep -q 'pid 1 exited with status 0' $out/brk.log"

# ---- damage: each header word, a body byte, a write cut by a reset --------------------------
boot damage "dtrace -q -c overrun -n 'BEGIN { freeze(); }' ;; overrun 1 1 600"
qmp damage 'wait:incident record 1 written'
start=$((16#$(sym __incident_start)))
# field offset: the sentence its flipped byte gives
fields=("0:its magic is damaged" "8:its version word is not" "12:checksum does not match its words"
        "16:checksum does not match its words" "20:checksum does not match its words"
        "24:checksum does not match its words" "28:checksum does not match its words"
        "32:checksum does not match its words" "36:checksum does not match its words"
        "40:its state word is neither committed nor read" "100:its body.s checksum does not match")
nw=1
for f in "${fields[@]}" cut; do
    # flip the field's first byte (or, for the cut, stop the next write between its body and
    # its header), reset, and read what the next boot says
    if [ "$f" = cut ]; then     # (the state word flipped first, so that the next boot writes)
        gdb-multiarch -nx -batch -ex "target remote $out/damage/g.sock" \
            -ex "set {unsigned char}$((start + 40)) ^= 1" -ex 'monitor system_reset' \
            -ex 'break kincident_body_written' -ex continue -ex 'monitor system_reset' \
            -ex 'delete' -ex detach "$img" >"$out/damage.gdb.$nw" 2>&1
    else
        off=${f%%:*}
        want=${f#*:}
        gdb-multiarch -nx -batch -ex "target remote $out/damage/g.sock" \
            -ex "set {unsigned char}$((start + off)) ^= 1" -ex 'monitor system_reset' -ex detach \
            "$img" >"$out/damage.gdb.$nw" 2>&1
    fi
    nw=$((nw + 1))
    for _ in $(seq 600); do
        [ "$(grep -c 'incident record 1 written' "$out/damage.log")" -ge $nw ] && break
        kill -0 $qpid 2>/dev/null || break
        sleep 0.1
    done
done
qmp damage quit
wait $qpid
boots=$(grep -c 'booting on' "$out/damage.log")
k=2
for f in "${fields[@]}" cut; do
    if [ "$f" = cut ]; then     # the boot whose write was cut, then the one after it
        what="the write cut by a reset"
        want="its writing was cut before it was whole"
        k=$((k + 1))
    else
        what="byte ${f%%:*} flipped"
        want=${f#*:}
    fi
    bootk=$(awk -v k=$k '/booting on/ { n++ } n == k' "$out/damage.log")
    check "$what: refused ('$want'), nothing believed, and that boot went on to write its own record" \
        "printf '%s\n' \"\$bootk\" | grep -q '^kernel: incident record refused: .*$want.*; nothing of it is believed\$' &&
         ! printf '%s\n' \"\$bootk\" | grep -q 'from the last boot' &&
         printf '%s\n' \"\$bootk\" | grep -q '^kernel: incident record 1 written' &&
         printf '%s\n' \"\$bootk\" | grep -q 'overrun: 1 periods, missed 0'"
    k=$((k + 1))
done
[ "$boots" -ge 14 ] || sed 's/^/# /' "$out/damage.log" | tail -20
