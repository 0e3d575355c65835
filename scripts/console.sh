# SPDX-License-Identifier: MIT
# Reading the console by its source (sourced: `. scripts/console.sh`). The kernel
# writes every line a process prints as "<pid>/<name>: <its text>" (kernel/kconsole.c), its
# own lines start with "kernel: ", and no process can write a line that starts any other way
# (its control characters come escaped). A verdict read through these functions is therefore
# the kernel's word or the named program's, never another process's imitation; the one place
# where make test's runners read verdicts from the console.
#   con_from NAME   the regex a line printed by program NAME starts with:
#                       grep -qE "$(con_from init)init: demo system done, 0 failures$"
#   CON_KERNEL      the regex a kernel line starts with
#   con_tap         filter: processes' TAP lines (ok / not ok / Bail out!) without their
#                   source, for scripts/run-tests.sh to count; every other line as it is.
#                   CON_TAP_FROM=REGEX: only the programs it names report TAP (others' "ok"
#                   lines keep their source, so they count for nothing)
#   con_of NAME     filter: only program NAME's lines, without their source (its output as
#                   data: D's aggregations, BENCH figures), and the kernel's lines
#   con_text        filter: every process's line without its source (output as data)
#   con_bare NAME   filter: program NAME's lines without their source, every other line as it
#                   came (make dtrace: the D program's output is dtrace's own, as dtrace(1M)
#                   prints it; the programs it watches keep theirs)
# Run alone (it is sourced): its help, or a sentence.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    . "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
    echo "console.sh: sourced by other scripts, not run (try --help)" >&2
    exit 2
fi
con_from() { printf '^[0-9]+/%s: ' "$1"; }
CON_KERNEL='^kernel: '
con_tap() { sed -E "s#^[0-9]+/(${CON_TAP_FROM:-[^ /:]+}): ((not )?ok( |\$)|Bail out!)#\\2#"; }
con_of() { sed -nE -e "s#^[0-9]+/$1: ##p" -e '/^kernel: /p'; }
con_text() { sed -E 's#^[0-9]+/[^ /:]+: ##'; }
con_bare() { sed -E "s#^[0-9]+/$1: ##"; }
#   con_run_text    scripts/qemu-run.sh with every process's line without its source (for
#                   scripts that compare a program's output as data); its exit status. With
#                   CON_RAW=FILE set, the console as it came is saved there too (for verdicts).
con_run_text()
{
    "$(dirname "${BASH_SOURCE[0]}")/qemu-run.sh" "$@" 2>&1 | tee "${CON_RAW:-/dev/null}" | con_text
    return "${PIPESTATUS[0]}"
}
#   con_run_bare NAME   the same through con_bare NAME
con_run_bare()
{
    local name=$1
    shift
    "$(dirname "${BASH_SOURCE[0]}")/qemu-run.sh" "$@" 2>&1 | tee "${CON_RAW:-/dev/null}" |
        con_bare "$name"
    return "${PIPESTATUS[0]}"
}
