# SPDX-License-Identifier: MIT
# Sourced by scripts/qemu-run.sh when QEMU_HANG is set: runs QEMU ("${cmd[@]}") with its console
# in a file that is copied to standard output as it grows, and watches it and the trace's files
# (the -f file of QEMU_ARGS, QEMU_UART1): when none of them has grown for QEMU_HANG seconds the
# run has hung (a deadlock, a spinning kernel, a logger waiting for ever), which is said, with
# the last console line, and QEMU killed, instead of waiting out QEMU_TIMEOUT. Returns QEMU's
# exit code, or 124 after a timeout or a hang (as timeout(1) does).
#   . scripts/qemu-watch.sh; qemu_watch TIMEOUT HANG [qemu args...]
# Run alone (it is sourced): its help, or a sentence.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    . "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
    echo "qemu-watch.sh: sourced by other scripts, not run (try --help)" >&2
    exit 2
fi

# The sizes of the files whose growth shows progress.
qemu_progress() {
    local f sum=0 sz
    for f in "$@"; do
        sz=$(stat -c %s -- "$f" 2>/dev/null) && sum=$((sum + sz))
    done
    echo "$sum"
}

qemu_watch() {
    local tmo=$1 hang=$2 tpid rc files=() w prevw= prev=-1 now start sec last nap=0.01
    shift 2
    set -f
    for w in ${QEMU_ARGS:-}; do
        [ "$prevw" = -f ] && files+=("$w")
        prevw=$w
    done
    set +f
    [ -n "${QEMU_UART1:-}" ] && files+=("$QEMU_UART1")
    # Globals: the EXIT trap, which runs after this function returns, needs them.
    con=$(mktemp "${TMPDIR:-/tmp}/qemu-con.XXXXXX")
    files+=("$con")
    "${cmd[@]}" "$@" </dev/null >"$con" &
    qpid=$!
    # -s: tail looks for QEMU's end every 50 ms, not every second (its default).
    tail -s 0.05 -c +1 -f --pid=$qpid -- "$con" &
    tpid=$!
    trap 'kill $qpid 2>/dev/null && sleep 0.2; rm -f "$con"' EXIT
    trap 'exit 143' TERM INT
    # QEMU's end is looked for after 10, 20, 50 ms, then every 100 ms: most test boots take
    # under a second, and a whole second's nap was once most of their time. The files' sizes
    # are read once a second of the run (sec: whole seconds since QEMU started), as the limits
    # are counted.
    start=${EPOCHREALTIME/[.,]/} sec=0 last=0
    while kill -0 $qpid 2>/dev/null; do
        sleep $nap
        case $nap in 0.01) nap=0.02 ;; 0.02) nap=0.05 ;; 0.05) nap=0.1 ;; esac
        now=$(( (${EPOCHREALTIME/[.,]/} - start) / 1000000 ))
        [ "$now" = "$sec" ] && continue
        sec=$now
        now=$(qemu_progress "${files[@]}")
        if [ "$now" != "$prev" ]; then prev=$now; last=$sec; fi
        if [ "$tmo" != 0 ] && [ "$sec" -ge "$tmo" ]; then
            echo "qemu-run: $img did not finish within ${tmo}s (killed)" >&2
            break
        fi
        if [ $((sec - last)) -ge "$hang" ]; then
            echo "qemu-run: $img hung: no console output and no trace progress for ${hang}s" \
                 "(killed after ${sec}s; last console line: $(tail -n 1 "$con" | tr -d '\r' | cut -c1-120))" >&2
            break
        fi
    done
    if kill -0 $qpid 2>/dev/null; then
        kill $qpid 2>/dev/null
        sleep 0.5
        kill -9 $qpid 2>/dev/null
        wait $qpid 2>/dev/null
        rc=124
    else
        wait $qpid
        rc=$?
    fi
    wait $tpid 2>/dev/null
    return $rc
}
