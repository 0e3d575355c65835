# SPDX-License-Identifier: MIT
# Shared by the post-mortem tests (test_flight.sh: a hung system, test_kfault.sh: a kernel
# fault), sourced with $b (the board's build directory), $h (the host tools) and $out set:
# boot flight.elf with QEMU's gdbstub, dump its ring with kevdump, and read the payloads of
# hang's user events (1..N) back from traceprinter's text.

# flight_boot QEMU_ARGS PATTERN: boots $b/flight.elf in the background ($qpid), its gdbstub on
# a UNIX socket of this run's own ($out/gdb.sock: no port to share with another test), its
# console in $out/run.log; returns when the console shows PATTERN or QEMU has ended. QEMU runs
# in $out, where the logger's tracebuffer.kev goes (not the directory the test was started from).
flight_boot() {
    local run img
    rm -f "$out/run.log" "$out/gdb.sock"   # a second boot must not find the first one's PATTERN
    run=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../scripts" && pwd)/qemu-run.sh
    img=$(cd "$b" && pwd)/flight.elf
    (cd "$out" && QEMU_HANG=0 QEMU_TIMEOUT=120 QEMU_ARGS="$1" \
        exec "$run" "$img" -gdb "unix:gdb.sock,server=on,wait=off") >"$out/run.log" 2>&1 &
    qpid=$!
    for _ in $(seq 600); do
        grep -q "$2" "$out/run.log" 2>/dev/null && break
        kill -0 $qpid 2>/dev/null || break
        sleep 0.1
    done
}

# flight_dump: kevdump of the ring through the gdbstub into $out/dump.kev (the map's address
# from nm, the counter's rate from the boot line: $map, $hz); kevdump's exit status.
flight_dump() {
    map=$(nm "$b/flight.elf" | sed -n 's/^0*\([0-9a-f]*\) [TtRrDd] kev_flight$/\1/p')
    hz=$(sed -n 's/.*booting on .*, \([0-9]*\) Hz cycle counter.*/\1/p' "$out/run.log")
    "$h/kevdump" -g "unix:$out/gdb.sock" -a "0x$map" -c "${hz:-25000000}" -o "$out/dump.kev" \
        >"$out/kevdump.log" 2>&1
}

# flight_payloads: from traceprinter's $out/dump.txt, the user payloads kept ($first..$last,
# $count of them) and the summary's $events and $lost.
flight_payloads() {
    local pays
    pays=$(sed -n 's/.*USREVENT:EVENT:1 .*d0:0x\([0-9a-f]*\) .*/\1/p' "$out/dump.txt")
    first=$((16#$(printf '%s\n' "$pays" | head -1 | grep . || echo 0)))
    last=$((16#$(printf '%s\n' "$pays" | tail -1 | grep . || echo 0)))
    count=$(printf '%s\n' "$pays" | grep -c .)
    events=$(sed -n 's/^events: \([0-9]*\) in .*/\1/p' "$out/dump.txt")
    lost=$(sed -n 's/^lost events: \([0-9]*\) .*/\1/p' "$out/dump.txt")
    lost=${lost:-0}
}
