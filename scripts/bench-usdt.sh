#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# usdt_disabled_insns (docs/usdt.md, docs/PERFORMANCE.md): what a USDT site costs while no
# probe is enabled, in instructions a pass. usdtdemo's step( ) and step_plain( ) are the same
# function, the first with a site (user/apps/usdtdemo/usdtdemo.c); both are straight-line code
# (no branch but the return, after which come padding and constants), so a pass runs each of
# their instructions up to the return once, and the difference of their counts, read from the
# program's own code with binutils' objdump, is what the site adds to a pass.
# usdt_is_enabled_disabled_insns: what an is-enabled check (USDT_ENABLED, a semaphore) costs
# while the probe is off: usdtdemo's costly( ) is nothing but the check and its guarded code,
# so the instructions it runs up to its first return, less that return, are the check's.
# The program's architecture from its ELF header: Thumb (bx lr) or A64 (ret).
#   scripts/bench-usdt.sh BUILD_DIR
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -eu
B=$1
prog=$B/usdt/usdtdemo.elf
# the board's binutils, its return and its branches (Thumb: bx lr; b*, cbz; A64: ret; b*, cbz,
# tbz; i386: ret; j*, call)
case $(readelf -h "$prog" | awk '$1 == "Machine:" { print $2 }') in
AArch64) cross=${CROSS:-aarch64-linux-gnu-} ret='\tret([ \t]|$)' branch='\t(b[a-z.]*|cbn?z|tbn?z)[ \t]' ;;
Intel)   cross=${CROSS:-i686-linux-gnu-} ret='\tret([ \t]|$)' branch='\t(j[a-z]+|call)[ \t]' ;;
*)       cross=${CROSS:-arm-none-eabi-} ret='\tbx\tlr' branch='\t(b[a-z.]*|c[bn]z)[ \t]' ;;
esac
count() {
    ${cross}objdump -d "$prog" | awk -v f="<$1>:" -v ret="$ret" -v branch="$branch" '
        $2 == f { on = 1; next } on && /^$/ { exit }
        on && /^ *[0-9a-f]+:/ && $0 !~ /\.word/ {
            n++
            if ($0 ~ ret) exit      # the return: what follows is padding and constants
            if ($0 ~ branch) br++ }
        END { if (br) print "branch"; else print n + 0 }'
}
a=$(count step) b=$(count step_plain)
case "$a$b" in *branch*) echo "bench-usdt: step or step_plain branches: not comparable" >&2; exit 1 ;; esac
[ "$a" -gt 0 ] && [ "$b" -gt 0 ] || { echo "bench-usdt: no step/step_plain in $prog" >&2; exit 1; }
echo "# step $a instructions, step_plain $b (objdump -d $prog)"
echo "BENCH usdt_disabled_insns $((a - b)) insns"
c=$(${cross}objdump -d "$prog" | awk -v ret="$ret" '$2 == "<costly>:" { on = 1; next } on && /^$/ { exit }
        on && /^ *[0-9a-f]+:/ { n++; if ($0 ~ ret) { print n - 1; exit } }')
[ -n "$c" ] || { echo "bench-usdt: no costly( ) in $prog" >&2; exit 1; }
echo "BENCH usdt_is_enabled_disabled_insns $c insns"
