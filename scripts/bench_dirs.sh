# SPDX-License-Identifier: MIT
# The directories of a bench script that boots the board and keeps what it measured (sourced:
# `. scripts/bench_dirs.sh`, by bench-rtt.sh, bench-stream.sh and bench-wire.sh).
#   bench_dirs NAME BUILD_DIR HOST_DIR   sets b (the board's build directory), h (the host
#                   tools'), here (the tree), run (scripts/qemu-run.sh) and out ($b/bench-NAME,
#                   emptied: the runs' logs and captures, left for a look after the figures)
# Run alone (it is sourced): its help, or a sentence.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    . "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
    echo "bench_dirs.sh: sourced by the bench scripts, not run (try --help)" >&2
    exit 2
fi
bench_dirs() {
    b=$2
    h=$3
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    run=$here/scripts/qemu-run.sh
    out=$b/bench-$1
    rm -rf "$out" && mkdir -p "$out"
}
