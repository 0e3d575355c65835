# SPDX-License-Identifier: MIT
# Sourced by the scripts in scripts/: script_help SCRIPT [ARG] prints SCRIPT's opening comment
# (what it does, how it is run, its environment) and exits 0 when ARG is -h or --help, so that
# every script answers --help before it reads an argument or starts anything
# (test/tools/test_script_help.sh runs each one's).
script_help() {
    case "${2:-}" in
    -h | --help)
        awk 'NR == 1 && /^#!/ { next }
             /^#/ { sub(/^# ?/, ""); if ($0 !~ /SPDX-License-Identifier/) print; next }
             { exit }' "$1"
        exit 0 ;;
    esac
}
# Run alone (not sourced): its own help, or a sentence.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    script_help "$0" "${1:-}"
    echo "script_help.sh: sourced by the scripts in scripts/, not run (try --help)" >&2
    exit 2
fi
