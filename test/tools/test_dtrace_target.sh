#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The host dtrace's -c and -p, $target, and the flags dtrace(1M) has (-Z -w -D -U -I -F -v
# -A), checked against independent truths: the pid the command reports of itself, the
# process's own exit, cpp's definitions, and DTrace's documented behaviour of each flag.
# usage: test_dtrace_target.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch dtarget "${2:-build/host-test}"
d=$bin/dtrace

# -c: the command runs (after BEGIN) and $target is its pid, the one it prints of itself.
# (dtrace(1M) splits -c's string on blanks, without quoting: the command is a script file.)
echo 'echo child $$' >"$dir/child.sh"
"$d" -q -c "sh $dir/child.sh" -n 'BEGIN { printf("target %d\n", $target); }' \
    >"$dir/c.out" 2>"$dir/c.err"
rc=$?
want=$(sed -n 's/^child //p' "$dir/c.out")
check "-c: \$target is the command's own pid (${want:-none}), the command ran, exit 0 ($rc)" \
    bash -c "[ $rc = 0 ] && [ -n '$want' ] && grep -qx 'target $want' '$dir/c.out'"
check "-c: tracing ends when the command exits, and says so" \
    grep -qx "dtrace: pid $want has exited" "$dir/c.err"
sed -n '1p' "$dir/c.out" >"$dir/c.first"
check "-c: the command runs only once tracing has started (BEGIN's line comes first)" \
    grep -q '^target ' "$dir/c.first"

# -p: a running process; $target is it; tracing ends when it exits.
sleep 0.3 & victim=$!
"$d" -q -p $victim -n 'BEGIN { printf("%d\n", $target); }' >"$dir/p.out" 2>"$dir/p.err"
rc=$?
check "-p $victim: \$target is $victim and tracing ends at its exit ($rc)" \
    bash -c "[ $rc = 0 ] && grep -qx '$victim' '$dir/p.out' && grep -q 'pid $victim has exited' '$dir/p.err'"
"$d" -q -p 999999999 -n 'BEGIN { exit(0); }' >/dev/null 2>"$dir/nop.err"
rc=$?
check "-p of no process: a clear error, exit 1 ($rc)" \
    bash -c "[ $rc = 1 ] && grep -q 'failed to grab pid 999999999' '$dir/nop.err'"
"$d" -q -n 'BEGIN { printf("%d\n", $target); exit(0); }' >"$dir/none.out" 2>&1
check "without -c or -p, \$target is 0 (libdtrace's macro before any process)" \
    grep -qx 0 "$dir/none.out"

# -Z: a description matching nothing is permitted; without it, D_PDESC_ZERO.
"$d" -q -Z -n 'nosuch:::probe { } BEGIN { printf("ran\n"); exit(0); }' >"$dir/z.out" 2>&1
check "-Z: a description that matches nothing enables nothing, the rest runs" grep -qx ran "$dir/z.out"
"$d" -q -xerrtags -n 'nosuch:::probe { } BEGIN { exit(0); }' >"$dir/noz.out" 2>&1
check "without -Z the same program is D_PDESC_ZERO" grep -q 'D_PDESC_ZERO' "$dir/noz.out"

# -w: destructive actions need it.
"$d" -q -n 'BEGIN { system("echo sys"); exit(0); }' >"$dir/w0.out" 2>&1
"$d" -q -w -n 'BEGIN { system("echo sys"); exit(0); }' >"$dir/w1.out" 2>&1
check "system( ) is refused without -w and runs with it" \
    bash -c "grep -q 'Destructive actions not allowed' '$dir/w0.out' && grep -qx sys '$dir/w1.out'"

# -D / -U / -I go to cpp (with -C).
mkdir -p "$dir/inc"
echo '#define GREETING "included"' >"$dir/inc/greet.h"
printf '#include <greet.h>\nBEGIN { printf("%%s %%d\\n", GREETING, N); exit(0); }\n' >"$dir/cpp.d"
"$d" -q -C -I "$dir/inc" -D N=5 -s "$dir/cpp.d" >"$dir/cpp.out" 2>&1
check "-C -I dir -D N=5: cpp finds the header and defines N" grep -qx 'included 5' "$dir/cpp.out"
"$d" -q -xerrtags -C -I "$dir/inc" -D N=5 -U N -s "$dir/cpp.d" >"$dir/cppu.out" 2>&1
rc=$?
check "-U N after -D N undefines it: N is an unknown identifier, exit 1 ($rc)" \
    bash -c "[ $rc = 1 ] && grep -q 'D_IDENT_UNDEF.*N' '$dir/cppu.out'"

# -F: flow indent layout; -v: enabled probes; -A: refused with the reason; --help lists all.
"$d" -F -n 'BEGIN { exit(0); }' >"$dir/f.out" 2>/dev/null
check "-F: the CPU and FUNCTION header, a probe that is neither entry nor return as '| :BEGIN'" \
    bash -c "head -1 '$dir/f.out' | grep -q '^CPU FUNCTION' && grep -q '^  0 | :BEGIN' '$dir/f.out'"
"$d" -v -n 'BEGIN { exit(0); }' >/dev/null 2>"$dir/v.err"
check "-v: lists the probes the program enabled" grep -qE '^ +1 +dtrace +BEGIN' "$dir/v.err"
"$d" -A -n 'BEGIN { }' >/dev/null 2>"$dir/a.err"
rc=$?
check "-A: refused with why, exit 2 ($rc)" \
    bash -c "[ $rc = 2 ] && grep -q 'anonymous tracing' '$dir/a.err'"
"$d" --help >"$dir/help.out"
for f in A c C D e F I p U v w Z; do
    grep -q "^	-$f " "$dir/help.out" || echo "-$f" >>"$dir/help.missing"
done
check "--help lists -A -c -C -D -e -F -I -p -U -v -w -Z" bash -c "[ ! -s '$dir/help.missing' ]"
finish
