#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kev2ctf: babeltrace2 reads every converted trace without error, with as many events as the
# .kev holds (plus the derived sched_process_free and sched_migrate_task) and as many discarded
# events as it lost;
# Trace Compass's rules (check_ctf.py) on each; LTTng names and fields; damaged input.
# usage: test_kev2ctf.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevconv)
set -u
export TZ=UTC
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch ctf "${2:-build/host-test/kevconv}"
need babeltrace2

# bt2_counts CTFDIR: "EVENTS DISCARDED" as babeltrace2 reports them, without the events
# kev2ctf derives (sched_process_free, sched_migrate_task); fails on any error.
bt2_counts() {
    local out err ev disc
    out=$(babeltrace2 "$1" 2>"$1.bt2err" | grep -vE ' (sched_process_free|sched_migrate_task): ' | wc -l) || return 1
    if grep -qE 'ERROR|CAUSED BY' "$1.bt2err"; then return 1; fi
    disc=$(sed -n 's/.*Tracer discarded \([0-9]*\) events.*/\1/p' "$1.bt2err" | awk '{s += $1} END {print s + 0}')
    echo "$out $disc"
}

roundtrip() { # roundtrip NAME KEV [NCPU]
    local want got line
    rm -rf "$dir/$1.ctf"
    if ! "$bin/kev2ctf" -o "$dir/$1.ctf" "$2" 2>"$dir/$1.err"; then
        notok "$1: kev2ctf converts" "$(cat "$dir/$1.err")"; return; fi
    want=$(kev_counts "$2")
    got=$(bt2_counts "$dir/$1.ctf") || { notok "$1: babeltrace2 reads it without error" "$(head -5 "$dir/$1.ctf.bt2err")"; return; }
    ok "$1: babeltrace2 reads it without error"
    check "$1: same events and discarded counts as the .kev ($want)" test "$want" = "$got"
    # Trace Compass's import rules (TAP lines of check_ctf.py, renumbered here).
    python3 "$here/check_ctf.py" "$dir/$1.ctf" "${3:-1}" >"$dir/$1.rules" 2>&1
    while IFS= read -r line; do
        case $line in
            "ok "*) ok "$1: ${line#ok * - }" ;;
            "not ok "*) notok "$1: ${line#not ok * - }" ;;
            *) echo "$line" ;;
        esac
    done <"$dir/$1.rules"
}

"$bin/kevgen" -n 20000 -o "$dir/le.kev" >/dev/null
"$bin/kevgen" -b -n 20000 -o "$dir/be.kev" >/dev/null
roundtrip le "$dir/le.kev"
roundtrip be "$dir/be.kev"
# (a string event's raw words differ: its bytes are stored in memory order, as QNX's)
nowords() { sed -E '/text = "[^"]+"/s/data = \[.*\]/data = []/'; }
check "big- and little-endian traces convert to the same events" \
    diff -q <(babeltrace2 "$dir/le.ctf" | nowords) <(babeltrace2 "$dir/be.ctf" | nowords)
for p in switch overwrite ring fill; do
    "$bin/kevgen" -x "$p" -k 3 -d 0 -n 30000 -o "$dir/$p.kev" >/dev/null
    roundtrip "$p" "$dir/$p.kev"
done
# More buffers than events fit: the losses after the last buffer end the stream in a packet
# that must not begin before the last BUFFER_END (babeltrace2's muxer refused it before).
for p in switch overwrite ring fill; do
    for b in "" -b; do
        "$bin/kevgen" $b -x "$p" -k 8 -d 0 -n 100000 -o "$dir/$p$b-k8.kev" >/dev/null
        roundtrip "$p${b:+ big-endian} 8 buffers" "$dir/$p$b-k8.kev"
    done
done
"$bin/kevgen" -x overwrite -k 3 -d 5000 -n 30000 -o "$dir/ow.kev" >/dev/null
roundtrip "overwrite-slow-logger" "$dir/ow.kev"
"$bin/kevscen" basic "$dir/basic.kev" >"$dir/basic.expect"
roundtrip basic "$dir/basic.kev"
"$bin/kevscen" loss "$dir/loss.kev" >"$dir/loss.expect"
roundtrip loss "$dir/loss.kev"
"$bin/kevscen" -k loss "$dir/kloss.kev" >/dev/null
roundtrip "loss, kernel-style messages" "$dir/kloss.kev"
${KEVSCEN4:-build/host-test/kevscen4} smp "$dir/smp.kev" >/dev/null
roundtrip "two CPUs" "$dir/smp.kev" 2
${KEVSCEN4:-build/host-test/kevscen4} wake "$dir/wake.kev" >/dev/null
roundtrip "wake-ups across CPUs" "$dir/wake.kev" 2
# User events the trace names (the registry): babeltrace2 shows their text as "NAME: value".
want=$("$bin/kevscen" -s -r 2 sync "$dir/sync.kev" | sed -n 's/^expect user 101 [0-9]* \([a-z_]*\) /\1: /p')
rm -rf "$dir/sync.ctf"; "$bin/kev2ctf" -o "$dir/sync.ctf" "$dir/sync.kev" >/dev/null
check "babeltrace2: a registered user event's text is its name and formatted words ($want)" \
    test "$(babeltrace2 "$dir/sync.ctf" | grep -c "code = 101, text = \"$want\"")" = 2
# SYNC_WAIT and PRIO_CHANGE as declared events with named fields (they were kev_unknown with
# raw words): the script's blocked request (filter on semaphore 3 held by logger) is a
# kev_sync_wait whose waiter, kind, object and owner are those; its inheritance boosts of
# logger are sched_pi_setprio (LTTng's fields, Trace Compass's priority) with the cause.
babeltrace2 "$dir/sync.ctf" > "$dir/sync.txt"
read -r _ _ rt rwho _ rus rkind robj rowner <<<"$("$bin/kevscen" -s -r 2 sync "$dir/sync.kev" | grep '^expect request ')"
read -r _ _ bwho bn <<<"$("$bin/kevscen" -s -r 2 sync "$dir/sync.kev" | grep '^expect boosts ')"
pidof() { "$bin/traceprinter" "$dir/sync.kev" | sed -n "s/.*PROCCREATE_NAME .* pid:\([0-9]*\) name:${1%/main}$/\1/p" | head -1; }
wpid=$(pidof "$rwho"); opid=$(pidof "$rowner"); bpid=$(pidof "$bwho")
check "babeltrace2: kev_sync_wait: ${rwho} blocked on ${rkind} ${robj} held by ${rowner} (pid $opid)" \
    grep -q "kev_sync_wait: .* tid = $((wpid * 1000 + 1)), pid = $((wpid * 1000 + 1)), vtid = 1, kind = ( \"$rkind\" : container = [0-9]* ), object = $robj, owner_tid = $((opid * 1000 + 1)), owner_vpid = $opid, owner_vtid = 1 }" "$dir/sync.txt"
check "babeltrace2: $bn sched_pi_setprio of $bwho by mutex inheritance, none of our events kev_unknown" \
    test "$(grep -c "sched_pi_setprio: .* comm = \"${bwho%/main}\", tid = $((bpid * 1000 + 1)), .*cause = ( \"mutex inheritance\"" "$dir/sync.txt")" = "$bn" \
        -a "$(grep -c 'kev_unknown: .*kev_class = 5, kev_event = 51[5-9]' "$dir/sync.txt")" = 0
# A main thread renamed with ThreadName: babeltrace2 shows the new comm from the rename on.
read -r _ _ rtid rold rnew rt <<<"$(${KEVSCEN4:-build/host-test/kevscen4} wake "$dir/wake.kev" | grep '^expect rename ')"
comms=$(babeltrace2 "$dir/wake-ups across CPUs.ctf" | grep "sched_switch" | grep -o "next_comm = \"[a-z]*\", next_tid = $rtid," | uniq | sed 's/next_comm = "\([a-z]*\)".*/\1/' | tr '\n' ' ')
check "a renamed thread: babeltrace2 shows $rold, then $rnew (got: $comms)" test "$comms" = "$rold $rnew "
check "two CPUs: one stream file per CPU" test -s "$dir/two CPUs.ctf/kernel/channel0_0" -a -s "$dir/two CPUs.ctf/kernel/channel0_1"
check "two CPUs: babeltrace2 shows both CPUs' events" \
    test "$(babeltrace2 "$dir/two CPUs.ctf" | grep -c 'cpu_id = 1 }')" -gt 0
lost=$(sed -n 's/^expect lost //p' "$dir/loss.expect")
check "loss: babeltrace2 reports the $lost events the ring dropped" \
    grep -q "Tracer discarded $lost events" "$dir/loss.ctf.bt2err"

# LTTng conventions on the scripted trace.
txt=$(babeltrace2 "$dir/basic.ctf")
R=$(sed -n 's/^expect rounds //p' "$dir/basic.expect")
check "metadata declares the trace's clock frequency" grep -q 'freq = 1000000;' "$dir/basic.ctf/kernel/metadata"
check "metadata has the boot date as clock offset" grep -q 'offset_s = 1795240800;' "$dir/basic.ctf/kernel/metadata"
check "timestamps are wall-clock from the boot date" grep -q '^\[06:00:00.002005000\]' <<<"$txt"
check "sched_switch with prev/next comm, tid, LTTng prio (QNX 10 -> -11, 20 -> -21), state" \
    grep -q 'sched_switch: .*prev_comm = "client", prev_tid = 2001, prev_prio = -11, prev_state = 1, next_comm = "server", next_tid = 3001, next_prio = -21' <<<"$txt"
check "sched_waking of a blocked thread" grep -q 'sched_waking: .*comm = "server", tid = 3001, prio = -21' <<<"$txt"
check "the idle thread is tid 0, prio 20, in sched_switch" \
    grep -q 'sched_switch: .*next_comm = "swapper", next_tid = 0, next_prio = 20 }' <<<"$txt"
check "state dump at start" test "$(grep -c lttng_statedump_process_state <<<"$txt")" = 5
check "state dump framed by start and end" grep -q lttng_statedump_end <<<"$txt"
check "syscall_entry_<name> from the kernel-call table" \
    test "$(grep -c 'syscall_entry_MsgSend:' <<<"$txt")" = $((2 * R))
check "syscall_exit_<name> carries the error" grep -q 'syscall_exit_SemWait: .*ret = -11' <<<"$txt"
check "irq_handler_entry / exit" test "$(grep -c ' irq_handler_entry: .*irq = 5' <<<"$txt")" = "$R"
check "message events keep their ids, named by the event table" \
    grep -q 'kev_comm_snd_message: .*rcvid = 0x5, pid = 3, tid = 2001' <<<"$txt"
check "process events give Linux pids (pid 2001, parent procnto of idle only: 1001)" \
    grep -q 'kev_process_create: .*ppid = 1001, pid = 2001, vpid = 2, name = "client"' <<<"$txt"
check "user string events keep the text" grep -q 'kev_user: .*text = "user checkpoint"' <(babeltrace2 "$dir/le.ctf")

# Damaged input: a clear message, exit 1, no crash.
damaged() { # damaged NAME FILE PATTERN
    local err rc
    err=$(timeout 20 "$bin/kev2ctf" -o "$dir/damaged.ctf" "$2" 2>&1 >/dev/null); rc=$?
    if [ "$rc" = 1 ] && grep -qiE "$3" <<<"$err"; then ok "$1"; else notok "$1" "exit $rc: $err"; fi
}
size=$(stat -c %s "$dir/le.kev")
head -c $((size - 1000)) "$dir/le.kev" > "$dir/trunc.kev"
damaged "truncated file" "$dir/trunc.kev" 'truncated'
head -c 100 "$dir/le.kev" > "$dir/hdr.kev"
damaged "file cut inside the header" "$dir/hdr.kev" 'header'
cp "$dir/le.kev" "$dir/garbage.kev"
printf '\xff\xff\xff\xff%.0s' $(seq 64) | dd of="$dir/garbage.kev" bs=1 seek=$((size / 2)) conv=notrunc status=none
damaged "garbage in the middle" "$dir/garbage.kev" 'invalid|BUFFER|combine|trailer|outside'
damaged "missing file" "$dir/none.kev" 'No such file'
"$bin/kev2ctf" -o /proc/nonexistent/x "$dir/le.kev" 2>/dev/null; check "unwritable output exits 1" test $? = 1
"$bin/kev2ctf" --help | grep -q '^usage: kev2ctf'; check "--help prints usage" test $? = 0
"$bin/kev2ctf" "$dir/le.kev" >/dev/null 2>&1; check "missing -o exits 2" test $? = 2
finish
