#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tools' one option loop (tools/common/tool_opts.c): for every tool that runs it,
# --help prints its usage and exits 0; every option --help lists is one the tool takes (each is
# given with a value where --help names one, and the tool goes on to complain of the missing
# FILE, never of the option); an unknown option, long or short, and an option without its value
# are refused by name with a pointer to --help, exit 2, before any file is read; and a second
# FILE is refused. The truth for "takes" is the tool's own behaviour, not the table.
# usage: test_tool_opts.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test)
set -u
bin=$(realpath "${1:-build/host}")
here=$(dirname "$0")
. "$here/tap.sh"
scratch toolopts "${2:-build/host-test}"
tools="kev2ctf kev2json kev2perfetto kevstat kevreport kevtable traceprinter dcompile kevsql kevcapture kevtop kevlive stacksym kevdump kevrtt kevrelay"

for t in $tools; do
    out=$("$bin/$t" --help 2>&1); rc=$?
    check "$t --help: usage, exit 0" test "$rc" = 0 -a "$(head -1 <<<"$out" | cut -d' ' -f1-2)" = "usage: $t"

    # every option line of --help: "  -x, --long ARG", "  --long ARG" or "  -x ARG", then two
    # spaces or more and the help (or the help on the next line)
    bad=""
    while read -r names; do
        opt=${names%% *}; opt=${opt%,}
        arg=""
        last=${names##* }
        [[ $last =~ ^[A-Z] ]] && arg=$last
        val=""
        case "$arg" in
            DIR) val=$dir ;; FILE) val=$dir/x.out ;; TIME) val=1ms ;; N) val=10 ;;
            FORMAT) val=%t ;; SECTION*) val=cpu ;; "") ;; *) val=x ;;
        esac
        # --elf/--kernel read the file they are given: the tool's own kevgen binary is an ELF file
        case "$opt" in --elf|--kernel) val=$bin/kevgen ;; esac
        # -h prints the help; kevsql --scheduler URL would reach for a Dask cluster
        [ "$opt" = "-h" ] || [ "$opt" = "--scheduler" ] && continue
        # in the scratch directory, with no input (kevcapture writes capture.kev, reads stdin;
        # kevlive serves port 5344 until stdin ends, at once)
        err=$(cd "$dir" && "$bin/$t" "$opt" ${val:+"$val"} 2>&1 >/dev/null </dev/null)
        grep -qiE "unknown option|needs its" <<<"$err" && bad="$bad [$opt: $err]"
    done < <(awk '/^  -/ { sub(/^  /, ""); split($0, p, /  +/); print p[1] }' <<<"$out")
    if [ -z "$bad" ]; then ok "$t takes every option its --help lists"
    else notok "$t refuses an option its --help lists" "$bad"; fi

    err=$("$bin/$t" --no-such-option "$dir/none.kev" 2>&1 >/dev/null); rc=$?
    check "$t: an unknown long option is named, points to --help, exit 2" \
        test "$rc" = 2 -a -n "$(grep -F -- '--no-such-option' <<<"$err" | grep -F -- "$t --help")"
    err=$("$bin/$t" -Q "$dir/none.kev" 2>&1 >/dev/null); rc=$?
    check "$t: an unknown short option is named, points to --help, exit 2" \
        test "$rc" = 2 -a -n "$(grep -F -- '-Q' <<<"$err" | grep -F -- "$t --help")"
done

# an option's missing value, named with what it needs (the tools that take -o)
for t in kev2ctf kev2json kev2perfetto kevreport dcompile; do
    err=$("$bin/$t" "$dir/none.kev" -o 2>&1 >/dev/null); rc=$?
    check "$t -o without its value: named, exit 2" test "$rc" = 2 -a -n "$(grep -F -- '-o needs its' <<<"$err")"
done
err=$("$bin/kevstat" --wait-min 2>&1 >/dev/null); rc=$?
check "kevstat --wait-min without its value: named, exit 2" test "$rc" = 2 -a -n "$(grep -F -- '--wait-min needs its TIME' <<<"$err")"
# dtrace keeps dtrace(1M)'s getopt loop: getopt names the option, dtrace points to --help
err=$("$bin/dtrace" -Q -n 'BEGIN { exit(0); }' 2>&1 >/dev/null); rc=$?
check "dtrace: an unknown option is named, points to --help, exit 2" \
    test "$rc" = 2 -a -n "$(grep -F -- "'Q'" <<<"$err")" -a -n "$(grep -F -- 'dtrace --help' <<<"$err")"
"$bin/kevgen" -n 20 -o "$dir/a.kev" >/dev/null
err=$("$bin/traceprinter" "$dir/a.kev" "$dir/a.kev" 2>&1 >/dev/null); rc=$?
check "traceprinter with two FILEs: refused, exit 2" test "$rc" = 2 -a -n "$(grep -F 'only one FILE' <<<"$err")"
# options after the FILE are options still (getopt_long's order), as before the loop
lines=$("$bin/traceprinter" "$dir/a.kev" -n | wc -l)
check "traceprinter FILE -n: the option after the FILE is taken" test "$lines" -gt 20
finish
