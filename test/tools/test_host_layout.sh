#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The host side's layout (tools/module.mk, docs/ARCHITECTURE.md "The host side"): no tool's file
# includes a file of another folder by a relative path (they reach the host library through
# <kevhost/...> and the decoder through <trace/...>), tools/common includes nothing of a tool,
# every public header of the library compiles on its own (the compiler is the truth), and every
# source of the library is compiled once, for the library, and the tools link it (make's
# own dry-run plan).
# usage: test_host_layout.sh
set -u
here=$(dirname "$0")
top=$(cd "$here/../.." && pwd)
. "$here/tap.sh"
cd "$top" || exit 1
scratch hostlayout "${TMPDIR:-/tmp}"

cross=$(grep -rnE '#include "\.\./' tools --include='*.[ch]' || true)
if [ -z "$cross" ]; then ok "no file under tools/ includes another folder's file by a relative path"
else notok "a file under tools/ includes another folder's file" "$cross"; fi

tooldirs=$(ls -d tools/*/ | sed 's#tools/##; s#/$##' | grep -vx 'common\|analysis\|include' | paste -sd'|')
lower=$(grep -rnE "#include [<\"]($tooldirs)/" tools/common tools/analysis tools/include || true)
if [ -z "$lower" ]; then ok "the library (tools/common, tools/analysis) includes no tool's file"
else notok "the library includes a tool's file" "$lower"; fi

bad=""
for h in tools/include/kevhost/*.h; do
    if ! printf '#include <kevhost/%s>\n' "${h##*/}" |
         gcc -std=gnu11 -Wall -Wextra -Werror -Itrace/include -Itools/include -Ikernel/include -Itest/unit \
             -fsyntax-only -x c - 2>"$dir/cc.err"; then
        bad="$bad ${h##*/}: $(head -1 "$dir/cc.err")"
    fi
done
if [ -z "$bad" ]; then ok "every public header of the library compiles on its own"
else notok "a public header needs another included before it" "$bad"; fi

# make's own plan (a dry run, nothing built): a source of the library changed is compiled once,
# for the library, and every tool that uses it is linked again.
tools="kev2ctf kev2json kev2perfetto kevstat kevreport kevtable traceprinter dtrace kevsql kevsql.so"
plan=$(make -n -W tools/analysis/kx.c -W trace/kev_decode.c \
       $(for t in $tools; do printf ' build/host/%s' "$t"; done) 2>&1)
ccs=$(grep -cE -- '-c (tools/analysis/kx|trace/kev_decode)\.c' <<<"$plan")
links=0
for t in $tools; do grep -qE -- "-o build/host/$t( |\$)" <<<"$plan" && links=$((links + 1)); done
if [ "$ccs" = 2 ] && [ "$links" = "$(wc -w <<<"$tools")" ]; then
    ok "a library source is compiled once and every tool is linked with it again (make -n)"
else
    notok "a library source is compiled $ccs times for 2 sources, $links tools relinked" \
          "$(grep -E -- ' -c | -o build/host' <<<"$plan" | head -20)"
fi
finish
