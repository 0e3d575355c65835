#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make dtrace`: runs a D program live on the board in QEMU, over the demo system or, with
# APPS, over appinit and those programs, with a tracelogger capture to trace.kev in the same
# boot. Each program gets its own part of the boot command line (user/lib/kargs.c: parts
# separated by ";;").
#   scripts/run-dtrace.sh IMAGE.elf
# $target is the pid of the program TARGET names, by default the first program of APPS
# (without APPS, the demo's init): bound when that program makes its first kernel call
# (d/dtarget.h). The run's first line says which program it is, its last lines which pid it
# was. Every program's console line keeps its source ("<pid>/<program>: ", docs/console.md);
# the D program's output is dtrace's own and shows bare, as dtrace(1M) prints it.
# Environment (from the Makefile): B, H, S (script file) or D (clauses), D_OPTS, ARGS (the
# script's arguments, $1 $2 ..., split at blanks as a shell splits them), APPS, TARGET,
# TRACE_STORAGE (semihost: files on the host; uart: no host files, as on x86-pc).
# On a board with semihosting the program is compiled on the host (dcompile, with the image's
# kernel symbols for D's `name) and the target reads the .dobj; without (x86-pc), its text goes on the boot command line and the target's
# dtrace compiles it (-n): line breaks are kept (a #pragma or #define needs a line of its
# own), // comments are dropped to save room, and the text may not hold a single quote.
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
img=$1
here=$(dirname "$0")
. "$here/console.sh"    # D's output shown as text: console source prefixes stripped
trace=${TRACE_FILE:-trace.kev}
if [ -z "${S:-}" ] && [ -z "${D:-}" ]; then
    echo "usage: make dtrace S=script.d | D='clauses' [APPS=\"prog...\" [TARGET=prog]] [D_OPTS=\"-q -x bufsize=16k\"] [ARGS=\"arg...\"]" >&2
    exit 2
fi
eval "args=(${ARGS:-})" || { echo "make dtrace: cannot split ARGS=${ARGS:-}" >&2; exit 2; }
# The board prints stack frames as addresses; stacksym names them from the image's ELF files
# (STACKSYM: its options, -x for file:line, --folded for folded stacks; docs/profiling.md).
symbolize() {
    if [ -x "$H/stacksym" ]; then
        "$H/stacksym" ${STACKSYM:-} -k "$img" "${img%.elf}"/*.elf
    else
        cat
    fi
}
# The capture samples stacks (tracelogger -p, SYSTEM STACK events) when the program has a
# profile-N probe, at its highest rate (at most 5000, the profile provider's; a sampler and a
# profile-N probe of one rate interrupt together, so that dtrace -i over trace.kev fires that
# probe at the very samples the board fired it at, docs/profiling.md); TL_OPTS overrides. The
# rate is the compiled program's (dcompile --sample-hz: whatever $1 or a #define made N) where
# the host compiles it; read from the text below for a board that compiles the text itself.
rates=$(printf '%s\n' "${D:-}" "$(cat "${S:-/dev/null}" 2>/dev/null)" | grep -o 'profile-[0-9a-z]*' | sed 's/profile-//')
tl_opts=${TL_OPTS:-}
if [ -z "$tl_opts" ] && [ -n "$rates" ]; then
    hz=$(printf '%s\n' $rates | awk '
        /^[0-9]+(hz)?$/ { n = $0 + 0 }
        /^[0-9]+(ms|msec)$/ { n = int(1000 / ($0 + 0)) }
        /^[0-9]+(us|usec)$/ { n = int(1000000 / ($0 + 0)) }
        /^[0-9]+(s|sec)$/ { n = 1 }
        n > m { m = n }
        END { print (m > 5000) ? 5000 : (m < 1 ? 1 : m) }')
    tl_opts="-p $hz"
fi
con=$(mktemp)     # the console's text, for the workload's verdict below
raw=${CON_RAW:-$(mktemp)}   # the console as it came, for $target's pid (the kernel's prefixes)
trap 'rm -f "$con"; [ -z "${CON_RAW:-}" ] && rm -f "$raw"' EXIT
work=${APPS:+appinit}
work=${work:-init}
# $target: TARGET, else the first of APPS (appinit starts it), else the demo's init
# (d/dtarget.h); a program of the image
first=${APPS%% *}
target=${TARGET:-${first:-$work}}
if [ ! -f "${img%.elf}/$target.elf" ]; then
    echo "make dtrace: TARGET=$target: no program $target in ${img##*/} (it has: $(cd "${img%.elf}" 2>/dev/null && ls -- *.elf | sed 's/\.elf$//' | tr '\n' ' '))" >&2
    exit 2
fi
echo "dtrace: \$target is the pid of $target, the first process of that name, from its first kernel call${TARGET:+ (TARGET=$TARGET)}${APPS:+; TARGET= names another of APPS=\"$APPS\"}"
rest=${APPS:+ ;; appinit $APPS}
# the programs' USDT probes (docs/usdt.md): dcompile reads their ELF files' notes
elfs=()
for a in ${APPS:-}; do
    [ -f "${img%.elf}/$a.elf" ] && elfs+=(--elf "${img%.elf}/$a.elf")
done
if [ "${TRACE_STORAGE:-semihost}" = uart ]; then
    if [ -n "${S:-}" ]; then
        [ -r "$S" ] || { echo "make dtrace: cannot read $S" >&2; exit 2; }
        text=$(sed -E 's:(^|[[:space:]])//.*$:\1:' "$S")
    else
        text=$D
    fi
    case $text in *"'"*) echo "make dtrace: on this board the D text goes on the boot command line and may not hold a single quote" >&2; exit 2;; esac
    qargs=
    for a in "${args[@]}"; do
        case $a in *"'"*) echo "make dtrace: on this board the arguments go on the boot command line and may not hold a single quote" >&2; exit 2;; esac
        qargs="$qargs '$a'"
    done
    # the tracelogger streams to UART 1, with the same options as on a board with host files
    # (its stack samples: without them dtrace -i over the capture has no stacks)
    line="dtrace ${D_OPTS:-} ${APPS:+-K }-c $work -T $target -n '$text'$qargs$rest${APPS:+ ;; tracelogger -d1 -u $tl_opts}"
    if [ ${#line} -gt 2000 ]; then
        echo "make dtrace: the D text makes a boot command line of ${#line} characters; this board takes 2000 at most (it has no host files): shorten the program" >&2
        exit 2
    fi
    uart=$(dirname "$img")/trace.uart
    rm -f "$uart" "$trace"
    CON_RAW=$raw QEMU_ARGS=$line QEMU_UART1=$uart \
        QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} con_run_bare dtrace "$img" | tee "$con" | symbolize
    rc=${PIPESTATUS[0]}
    [ -n "${APPS:-}" ] && { "$H/kevcapture" -q -o "$trace" "$uart" || rc=1; }
else
    obj=$B/script.dobj
    if [ -n "${S:-}" ]; then
        "$H/dcompile" ${D_OPTS:-} --kernel "$img" "${elfs[@]}" -T "$target" -s "$S" -o "$obj" --sample-hz "$obj.hz" "${args[@]}" || exit 1
    else
        "$H/dcompile" ${D_OPTS:-} --kernel "$img" "${elfs[@]}" -T "$target" -n "$D" -o "$obj" --sample-hz "$obj.hz" "${args[@]}" || exit 1
    fi
    if [ -z "${TL_OPTS:-}" ]; then
        hz=$(cat "$obj.hz")
        tl_opts=
        [ "$hz" -gt 0 ] && tl_opts="-p $((hz > 5000 ? 5000 : hz))"
    fi
    rm -f "$trace"
    CON_RAW=$raw QEMU_ARGS="dtrace ${APPS:+-K }-c $work $obj$rest${APPS:+ ;; tracelogger -d1 $tl_opts -f $trace}" \
        QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} con_run_bare dtrace "$img" | tee "$con" | symbolize
    rc=${PIPESTATUS[0]}
fi
# The board's dtrace exits 0 as dtrace(1M) does when its -c workload fails, and says so: the
# make target fails then, as make run does for the same boot (appinit's failures).
if [ "$rc" = 0 ] && grep -aq '^dtrace: pid [0-9]* (.*) \(exited with status\|killed by signal\)' "$con"; then
    rc=1
    echo "dtrace: the workload failed (above): exit status $rc"
fi
# Which pid $target was: the kernel's word, the prefix of the program's first console line;
# else its starter's line (appinit, the demo's init: "NAME (pid N)"), else the capture's
# process table.
tpid=$(sed -nE "s#^([0-9]+)/$target: .*#\1#p" "$raw" | head -1)
[ -n "$tpid" ] || tpid=$(sed -nE "s#^[0-9]+/$work: $work: $target \(pid ([0-9]+)\).*#\1#p" "$raw" | head -1)
if [ -z "$tpid" ] && [ -s "$trace" ] && [ -x "$H/dtrace" ]; then
    tpid=$("$H/dtrace" -q -i "$trace" -c "$target" -n 'END { printf("%d\n", $target); }' 2>/dev/null | head -1)
    [ "$tpid" = 0 ] && tpid=
fi
if [ -n "$tpid" ]; then
    echo "dtrace: \$target was pid $tpid ($target)"
else
    echo "dtrace: \$target: no process named $target on the console or in a capture"
fi
echo "dtrace: the system exited with status $rc"
if [ -n "${APPS:-}" ] && [ -s "$trace" ]; then
    echo "dtrace: the same boot's trace is in $trace ($H/kevreport -o ${trace%.kev}.html $trace)"
fi
exit $rc
