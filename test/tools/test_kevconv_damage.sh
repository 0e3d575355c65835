#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every kevconv tool on damaged traces: truncated at many lengths, bytes overwritten at many
# places (deterministic), empty, not a trace, and a two-CPU trace with bytes overwritten.
# Each must exit 0 or 1 with a message on stderr when it exits 1, within 10 s: never a crash
# (signal), a hang or another status.
# usage: test_kevconv_damage.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevconv)
# make check-host runs it on the optimised tools and on their ASan + UBSan builds.
set -u
bin=${1:-build/host}
# With sanitizer builds (BINDIR build/host-test): a report must not pass for "exit 1".
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=98"
here=$(dirname "$0")
. "$here/tap.sh"
scratch damage "${2:-build/host-test/kevconv}"

"$bin/kevscen" -k loss "$dir/good.kev" >/dev/null
size=$(stat -c %s "$dir/good.kev")
cases=()
for cut in 0 10 100 300 700 1000 4096 10000 20000 $((size / 2)) $((size - 64)) $((size - 1)); do
    head -c "$cut" "$dir/good.kev" >"$dir/cut$cut.kev"
    cases+=("cut$cut")
done
RANDOM=11 # deterministic
for i in $(seq 24); do
    cp "$dir/good.kev" "$dir/bytes$i.kev"
    off=$(( (RANDOM * 32768 + RANDOM) % size ))
    len=$(( 1 + RANDOM % 48 ))
    byte=$(( RANDOM % 256 )) # outside $(...): a subshell would draw from a new seed
    head -c "$len" /dev/zero | tr '\0' "\\$(printf '%03o' "$byte")" |
        dd of="$dir/bytes$i.kev" bs=1 seek="$off" conv=notrunc status=none
    cases+=("bytes$i")
done
printf 'hello, not a trace\n' >"$dir/text.kev"
cases+=(text)
# A two-CPU trace (the tools sort its events across CPUs) and damaged copies that keep its
# trailer, so the sorting sees the decoder stop half-way.
"${KEVSCEN4:-build/host-test/kevscen4}" smp "$dir/smp.kev" >/dev/null
cases+=(smp)
ssize=$(stat -c %s "$dir/smp.kev")
for i in $(seq 8); do
    cp "$dir/smp.kev" "$dir/smpbytes$i.kev"
    printf '\x5a\x5a\x5a\x5a\x5a\x5a' |
        dd of="$dir/smpbytes$i.kev" bs=1 seek=$(( ssize * i / 10 )) conv=notrunc status=none
    cases+=("smpbytes$i")
done

run() { # run TOOL CASE ARGS...: exit status 0 or 1, and a message when 1
    local tool=$1 c=$2 rc err
    shift 2
    err=$(timeout 10 "$bin/$tool" "$@" 2>&1 >/dev/null); rc=$?
    if [ "$rc" = 0 ] || { [ "$rc" = 1 ] && [ -n "$err" ]; }; then return 0; fi
    echo "# $tool on $c: exit $rc: $(head -c 200 <<<"$err")"
    return 1
}
for tool in kev2ctf kev2json kev2perfetto kevstat kevreport; do
    bad=0
    for c in "${cases[@]}"; do
        case $tool in
            kev2ctf) run $tool "$c" -o "$dir/$c.ctf" "$dir/$c.kev" || bad=$((bad + 1)) ;;
            kev2json) run $tool "$c" -o "$dir/$c.json" "$dir/$c.kev" || bad=$((bad + 1)) ;;
            kev2perfetto) run $tool "$c" -o "$dir/$c.pftrace" "$dir/$c.kev" || bad=$((bad + 1)) ;;
            kevstat) run $tool "$c" --json "$dir/$c.kev" || bad=$((bad + 1)) ;;
            kevreport) run $tool "$c" -o "$dir/$c.html" "$dir/$c.kev" || bad=$((bad + 1)) ;;
        esac
    done
    check "$tool: ${#cases[@]} damaged traces, no crash or hang, a message on each failure" test "$bad" = 0
done
# Some of them must be refused (the damage is real), and the good one accepted.
refused=0
for c in "${cases[@]}"; do "$bin/kevstat" "$dir/$c.kev" >/dev/null 2>&1 || refused=$((refused + 1)); done
check "damaged traces are refused ($refused of ${#cases[@]})" test "$refused" -ge 28
"$bin/kevstat" -s lost "$dir/good.kev" >/dev/null 2>&1
check "the undamaged trace is accepted" test $? = 0
finish
