#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every script in scripts/ answers --help (docs/README.md; scripts/script_help.sh): run from a
# scratch directory, each of the shell and Python scripts git tracks there exits 0 within 10 s,
# prints at least two lines, names itself (its file name, or for kernel_graph.py its usage), and
# leaves nothing behind: its help comes before it reads an argument, boots QEMU or writes a
# file. (qemu-run.sh once booted a kernel named --help; run-demo.sh died on an unbound variable.)
# Prints TAP.
#   test/tools/test_script_help.sh
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/test/tools/tap.sh"
scratch script-help "$root/build/host-test"
mkdir -p "$dir/cwd"
for s in $(git -C "$root" ls-files 'scripts/*.sh' 'scripts/*.py'); do
    name=$(basename "$s")
    case $s in *.py) run=(python3 "$root/$s") ;; *) run=(bash "$root/$s") ;; esac
    out=$(cd "$dir/cwd" && BOARD=no-such-board timeout 10 "${run[@]}" --help 2>&1 </dev/null)
    rc=$?
    left=$(ls -A "$dir/cwd")
    if [ $rc = 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -ge 2 ] &&
       grep -qF -- "${name%.py}" <<< "$out" && [ -z "$left" ]; then
        ok "$s --help: $(printf '%s\n' "$out" | grep -m1 . | cut -c1-80)"
    else
        notok "$s --help: exit $rc, $(printf '%s\n' "$out" | wc -l) lines, files left: ${left:-none}" \
            "$(printf '%s\n' "$out" | head -3)"
    fi
    rm -rf "${dir:?}/cwd" && mkdir -p "$dir/cwd"
done
finish
