# SPDX-License-Identifier: MIT
# TAP lines for the QEMU test scripts (sourced, not run): numbered "ok N - ..." and
# "not ok N - ..." lines; each script prints its own plan. One definition for the scripts
# that each carried a copy. TAP_PREFIX, when set (e.g. "$board: "), starts every description.
#   ok STATUS DESCRIPTION    "ok" when STATUS is 0, else "not ok"
#   check DESCRIPTION EXPR   the same with EXPR's status (EXPR is eval'd)
#   relay FILE [LABEL]       a checker's TAP lines in FILE ("ok N - what", "not ok N - what"),
#                            numbered here, LABEL before each description; other lines as they are
#   served_port LOG TOOL     the port TOOL said in LOG it serves on ("TOOL: the ... is served on
#                            127.0.0.1:PORT", kevrelay's and kevrtt's -l 0), waited for 10 s
#   sock_wait PATH           returns once PATH is a UNIX socket (a gdbstub started with QEMU's
#                            -gdb unix:PATH,server=on,wait=off listens: no port to share with
#                            another test), or after 5 s
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - ${TAP_PREFIX:-}$2"; else echo "not ok $n - ${TAP_PREFIX:-}$2"; fi; }
check() { if eval "$2"; then ok 0 "$1"; else ok 1 "$1"; fi; }
relay() {
    local line
    while IFS= read -r line; do
        case $line in
            "ok "*) ok 0 "${2:-}${line#* - }" ;;
            "not ok "*) ok 1 "${2:-}${line#* - }" ;;
            *) echo "$line" ;;
        esac
    done <"$1"
}
sock_wait() {
    local i
    for i in $(seq 50); do
        [ -S "$1" ] && return 0
        sleep 0.1
    done
    return 1
}
served_port() {
    local i p
    for i in $(seq 100); do
        p=$(sed -n "s/^$2: the .* is served on 127\.0\.0\.1:\([0-9]*\)\$/\1/p" "$1" 2>/dev/null)
        [ -n "$p" ] && echo "$p" && return 0
        sleep 0.1
    done
    return 1
}
