#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make live`: boots the demo system (or your programs) in QEMU with the trace live and shows
# it in kevtop while it runs; kevtop also writes the trace to trace.kev as it arrives. Three
# paths (LIVE_PATH; the default is the board's BOARD_LIVE_PATH in its board.mk, else uart):
#   probe  the tracelogger only publishes the capture (-x probe) and kevprobe takes the kernel's
#          buffers from the guest RAM QEMU shares with the host as a file (QEMU_SHARED_RAM, at
#          the board's BOARD_SHARED_RAM), the VM never halted (docs/live.md)
#   gdb    the same through QEMU's gdbstub, the VM halted for each read (kevprobe -H)
#   uart   the tracelogger's -u stream, its flush interval on, through QEMU_STREAM's relay
# LIVE_KEEP=1 (probe): the reader gives no buffer back and the logger saves them all to the
# board's copy too (-x probe=keep; a capture the ring holds whole). The console
# goes to a file beside the image (the terminal is kevtop's); its last lines are shown at the
# end. With KEVLIVE, the trace is also served to LTTng's viewers as it comes (kevlive follows
# the file kevtop writes): the babeltrace2 command that attaches is said first. docs/live.md.
#   scripts/run-live.sh IMAGE.elf KEVTOP [KEVLIVE]
# RUN_ARGS: the programs' part of the command line (default: the demo's round again and again
# for LIVE_SECONDS, 30; make live APPS="a b": appinit and your programs, once); TL_OPTS: more
# tracelogger options (-x flush=MS); KEVTOP_OPTS: kevtop's (-b: plain frames, -d SECONDS);
# LIVE_DIR: where the pipe, the console and the board's copy go (default beside the image);
# LIVE_PORT: kevlive's port (default LTTng's 5344, or a free one when it is taken); LIVE_WEB_PORT:
# kevweb's (default 8344, or a free one); LIVE_QEMU_ARGS: more QEMU arguments (a test's -qmp).
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
img=$1
top=$2
klive=${3:-}
kweb=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
out=${LIVE_DIR:-$(dirname "$img")}
trace=${TRACE_FILE:-trace.kev}
fifo=$out/live.fifo
console=$out/live.console
rm -f "$fifo" "$console" "$out/live-board.kev"
mkfifo "$fifo" || exit 1
args=${RUN_ARGS:-init loop=${LIVE_SECONDS:-30} idle=100}
board=${BOARD:-mps2-an385}
path=${LIVE_PATH:-$(sed -n 's/^BOARD_LIVE_PATH *:= *\([a-z]*\).*/\1/p' "$here/../boards/$board/board.mk")}
path=${path:-uart}
case $path in
probe|gdb|uart) ;;
*) echo "live: LIVE_PATH is probe, gdb or uart, not '$path'" >&2; exit 2 ;;
esac
ram_base=$(sed -n 's/^BOARD_SHARED_RAM *:= *\(0x[0-9a-fA-F]*\).*/\1/p' "$here/../boards/$board/board.mk")
if [ "$path" = probe ] && [ -z "$ram_base" ]; then
    echo "live: board '$board' shares no RAM with the host (BOARD_SHARED_RAM): LIVE_PATH=gdb or uart" >&2
    exit 2
fi
# The board's own copy of the file where it has host files (semihosting): the live file must
# be the same bytes. On the probe path only with LIVE_KEEP=1 (the logger then saves the buffers
# the reader leaves in the ring).
tlfile=
[ "${TRACE_STORAGE:-semihost}" = semihost ] && tlfile="-f $out/live-board.kev"
if [ "$path" = probe ] || [ "$path" = gdb ]; then
    [ "${LIVE_KEEP:-0}" = 1 ] && tlopts="-x probe=keep $tlfile" || tlopts="-x probe"
    # The shared RAM's file (in /dev/shm where there is one: memory, not disk), or QEMU's
    # gdbstub on a UNIX socket (no port to find free, none another program can take), in a
    # directory of its own (a socket's path has at most 107 bytes).
    shm=/dev/shm
    [ "$path" = probe ] && [ -d $shm ] && [ -w $shm ] || shm=${TMPDIR:-/tmp}
    sockdir=$(mktemp -d "$shm/live.XXXXXX") || exit 1
    if [ "$path" = probe ]; then
        target="file:$sockdir/ram@$ram_base" how="from the guest RAM QEMU shares ($sockdir/ram), the VM never halted,"
        # On the host's clock unless asked otherwise (QEMU_ICOUNT): under an instruction count
        # QEMU runs the virtual CPUs in turn, and the tick that serves kevprobe's flush requests
        # waited up to a second behind a busy one (docs/probe-path.md, "Event to screen").
        qenv=(QEMU_SHARED_RAM="$sockdir/ram" QEMU_ICOUNT="${QEMU_ICOUNT:-none}") qopts=() kopts=()
    else
        target="unix:$sockdir/gdb" how="through QEMU's gdbstub ($sockdir/gdb), the VM halted for each read,"
        # (paused until kevprobe attaches: -S)
        qenv=() qopts=(-S -gdb "unix:$sockdir/gdb,server=on,wait=off") kopts=(-H)
    fi
    echo "live: booting $img in QEMU; kevprobe reads the trace $how to kevtop (q quits), the console to $console"
    # QEMU in a process group of its own, stopped when kevtop ends first; kevprobe's report in
    # kevprobe.log beside the console.
    # shellcheck disable=SC2086  # LIVE_QEMU_ARGS: words
    setsid env "${qenv[@]}" QEMU_TIMEOUT=0 QEMU_ARGS="$args ;; tracelogger -d1 $tlopts ${TL_OPTS:-}" \
        "$here/qemu-run.sh" "$img" "${qopts[@]}" ${LIVE_QEMU_ARGS:-} >"$console" 2>&1 </dev/null &
    qemu=$!
    # shellcheck disable=SC2086  # KEVPROBE_OPTS: words
    # kevprobe waits up to a minute for QEMU to start (a loaded host starts it slowly: 10 s
    # was seen to pass under make test's load).
    # (-p: QEMU's end is the target's, which a shared file cannot say)
    "$here/../build/host/kevprobe" -t -w 60 -p "$qemu" "${kopts[@]}" ${KEVPROBE_OPTS:-} -e "$img" -o - "$target" \
        >"$fifo" 2>"$out/kevprobe.log" &
    probe=$!
else
    echo "live: booting $img in QEMU; the trace streams to kevtop (q quits), the console to $console"
    # QEMU and its relay in a process group of their own, stopped when kevtop ends first.
    setsid env QEMU_STREAM="fifo:$fifo" QEMU_TIMEOUT=0 \
        QEMU_ARGS="$args ;; tracelogger -d1 -u ${TL_OPTS:-} $tlfile" \
        "$here/qemu-run.sh" "$img" >"$console" 2>&1 </dev/null &
    qemu=$!
    probe= sockdir=
fi
stop() {
    kill -- -"$qemu" 2>/dev/null
    wait "$qemu" 2>/dev/null
    [ -n "$probe" ] && kill "$probe" 2>/dev/null
    rm -f "$fifo"
    [ -n "$sockdir" ] && rm -rf "$sockdir"
}
# announced PID LOG SCRIPT: what the server PID, just started, says in LOG (the sed SCRIPT
# prints it: its port, its address), waited for up to 2 s while it runs; nothing when it ended
# or said nothing by then.
announced() {
    local said=
    for _ in $(seq 40); do
        said=$(sed -n "$3" "$2")
        [ -n "$said" ] || ! kill -0 "$1" 2>/dev/null && break
        sleep 0.05
    done
    printf '%s' "$said"
}
wpid=
trap 'stop; [ -n "$wpid" ] && kill "$wpid"; exit 130' INT TERM
# The LTTng live server, following the file kevtop writes (created empty first, so that it
# does not read an earlier run's): its log beside the console.
kpid=
if [ -n "$klive" ]; then
    : >"$trace"
    for p in ${LIVE_PORT:-5344 0}; do
        "$klive" -f -w 5 -p "$p" "$trace" 2>"$out/kevlive.log" &
        kpid=$!
        port=$(announced "$kpid" "$out/kevlive.log" \
               's/^kevlive: serving LTTng live viewers on 127.0.0.1 port \([0-9]*\)$/\1/p')
        [ -n "$port" ] && break
        kpid=
    done
    # (session-not-found-action=end: babeltrace2 ends 0 with the session instead of failing
    # when kevlive closes)
    [ -n "$port" ] && echo "live: LTTng viewers attach with: babeltrace2 net://localhost:$port/host/${BOARD:-mps2-an385}/kev --params=session-not-found-action=end"
fi
# The web view, following the same file (created empty first, as for kevlive): its address
# said before kevtop takes the terminal, its log beside the console.
if [ -n "$kweb" ]; then
    [ -n "$klive" ] || : >"$trace"
    "$kweb" -p "${LIVE_WEB_PORT:-8344}" "$trace" 2>"$out/kevweb.log" &
    wpid=$!
    url=$(announced "$wpid" "$out/kevweb.log" 's|^kevweb: the live view is at \(http://.*\)$|\1|p')
    if [ -n "$url" ]; then
        echo "live: the web view is at $url"
    else
        echo "live: kevweb did not start ($out/kevweb.log)"
        wpid=
    fi
fi
# shellcheck disable=SC2086  # KEVTOP_OPTS: words
"$top" ${KEVTOP_OPTS:-} -o "$trace" "$fifo"
rc=$?
for _ in $(seq 40); do      # at the trace's end QEMU and the relay are about to exit
    kill -0 "$qemu" 2>/dev/null || break
    sleep 0.05
done
whole=0
if kill -0 "$qemu" 2>/dev/null; then
    echo "live: kevtop ended before the system: stopping QEMU"
    stop
else
    whole=1
    wait "$qemu"
    qrc=$?
    rm -f "$fifo"
    [ -n "$sockdir" ] && rm -rf "$sockdir"
    echo "live: the system exited with status $qrc"
    [ "$rc" = 0 ] && rc=$qrc
fi
if [ -n "$probe" ]; then
    wait "$probe"
    prc=$?
    echo "live: $(tail -1 "$out/kevprobe.log")"
    [ "$rc" = 0 ] && [ $whole = 1 ] && rc=$prc
fi
if [ -n "$kpid" ]; then     # kevlive ends once its viewers have read the whole trace
    [ $whole = 1 ] && grep -q " attached to " "$out/kevlive.log" || kill "$kpid" 2>/dev/null
    wait "$kpid" 2>/dev/null
fi
# The page keeps the finished run until q or Ctrl-C (LIVE_HOLD: that many seconds); a trace
# cut short (kevtop quit first) is taken as ended where kevtop's file ends. kevtop on the
# terminal has already kept the last frame until its q: that q ends the page too (one q ends
# make live).
top_held=0
[ -t 1 ] && [[ " ${KEVTOP_OPTS:-} " != *" -b "* && " ${KEVTOP_OPTS:-} " != *" --json "* ]] && top_held=1
if [ -n "$wpid" ]; then
    kill -USR1 "$wpid" 2>/dev/null
    spid=
    trap 'kill "$wpid" $spid 2>/dev/null; wait "$wpid"; exit "$rc"' INT TERM
    if [ -n "${LIVE_HOLD:-}" ]; then
        echo "live: the web view keeps the finished run for $LIVE_HOLD s at $url"
        sleep "$LIVE_HOLD" &   # (a trap runs during wait, not during a foreground sleep)
        spid=$!
        wait "$spid"
    elif [ $top_held = 1 ]; then
        echo "live: q in kevtop ended the web view too"
    elif [ -t 0 ]; then
        echo "live: the web view keeps the finished run at $url: q or Ctrl-C quits"
        while read -rsn1 key && [ "$key" != q ]; do :; done
    fi
    kill "$wpid"
    wait "$wpid" 2>/dev/null
    trap - INT TERM
fi
echo "live: the console's last lines ($console):"
tail -5 "$console"
echo "live: the trace is in $trace (build/host/traceprinter $trace; kevstat, kevreport, dtrace -i)"
exit "$rc"
