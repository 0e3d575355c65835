# SPDX-License-Identifier: MIT
# TAP helpers shared by the kevconv and traceprinter script tests (sourced, not run).
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
check() { # check NAME COMMAND...: passes when the command succeeds
    local name=$1; shift
    if "$@"; then ok "$name"; else notok "$name" "failed: $*"; fi
}
need() { # need PROGRAM: a missing tool is a failure, never a silent pass
    if ! command -v "$1" >/dev/null 2>&1; then
        notok "$1 is installed" "$1 not found in PATH: install the Debian package"
        echo "1..$n"
        exit 1
    fi
}
# scratch NAME PARENT: a fresh directory $dir of its own for this run (runs at the same time
# do not share files), removed at the end when every test passed.
scratch() {
    mkdir -p "$2"
    dir=$(mktemp -d "$(realpath -m "$2")/$1.XXXXXX")
}
# relay FILE [PREFIX]: a checker's TAP lines in FILE numbered here, PREFIX before each name;
# its plan left out, its other lines kept as comments.
relay() {
    local line
    while IFS= read -r line; do
        case $line in
            "ok "*) ok "${2:-}${line#ok * - }" ;;
            "not ok "*) notok "${2:-}${line#not ok * - }" ;;
            "1.."*) ;;
            "#"*) echo "$line" ;;
            *) echo "# $line" ;;
        esac
    done <"$1"
}
finish() {
    echo "1..$n"
    [ "$fails" = 0 ] && rm -rf "$dir"
    [ "$fails" = 0 ]
}
# The events and lost counts traceprinter reports for a .kev file: "EVENTS LOST".
kev_counts() {
    local out
    out=$("$bin/traceprinter" "$1" 2>/dev/null | sed -n '/-- SUMMARY --/,$p')
    echo "$(sed -n 's/^events: \([0-9]*\) in .*/\1/p' <<<"$out") $(sed -n 's/^lost events: \([0-9]*\).*/\1/p' <<<"$out")"
}
