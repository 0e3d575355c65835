#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# aggpack's glyphs when no encoding is set, as libdtrace's dt_print_packed decides them: ascii
# when TERM is sun, sun-color or dumb, UTF-8 block elements for any other TERM or none; an
# encoding option overrides TERM. One key of quantize(4): one full bucket between the empty
# ones either side (2 and 8), "X" in ascii, U+2588 in utf8 (docs/d-consumer.md, aggpack).
# usage: test_dtrace_aggpack_term.sh [BINDIR]  (default: build/host)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
prog='BEGIN { @[(int)1] = quantize(4); exit(0); }'
line() { # line TERM|- [OPTIONS...]: the packed line dtrace prints with that TERM (- unset)
    local term=$1; shift
    if [ "$term" = - ]; then
        env -u TERM "$bin/dtrace" -q -x aggpack "$@" -n "$prog" | sed -n 4p
    else
        TERM=$term "$bin/dtrace" -q -x aggpack "$@" -n "$prog" | sed -n 4p
    fi
}
ascii='        1    2 : X : 8    | 1'
utf8='        1    2 : █ : 8    | 1'
for t in dumb sun sun-color; do
    check "TERM=$t, no encoding: ascii" [ "$(line $t)" = "$ascii" ]
done
check "TERM=xterm, no encoding: utf8" [ "$(line xterm)" = "$utf8" ]
check "no TERM, no encoding: utf8" [ "$(line -)" = "$utf8" ]
check "TERM=xterm, encoding=ascii: ascii" [ "$(line xterm -x encoding=ascii)" = "$ascii" ]
check "TERM=dumb, encoding=utf8: utf8" [ "$(line dumb -x encoding=utf8)" = "$utf8" ]
check "header: 9 key columns (an int), min/max 4 wide, a dash per bucket" \
    [ "$(TERM=dumb "$bin/dtrace" -q -x aggpack -n "$prog" | sed -n 3p)" = "      key  min .---. max  | count" ]
echo "1..$n"
[ "$fails" = 0 ]
