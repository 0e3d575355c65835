#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The fbt provider against gdb (docs/fbt.md, "How it is checked"): one boot of the dtrace
# image over the demo, with the board's dtrace counting fbt::F:entry for several kernel
# functions and printing each one's first arguments and first return value, and gdb-multiarch
# attached to the same QEMU, a breakpoint on each F's first instruction counting its calls
# while the probes are placed (test/qemu/fbt_gdb.py) and reading `info args` and `finish` at the
# first one. The counts must be equal; the arguments and return values too, value for value
# (those gdb reads: an argument it calls <optimized out> is not compared). gdb reads
# registers and the stack through QEMU, by the DWARF locations; the probes through the
# kernel's trap and table: independent paths to the same values.
#   test/qemu/test_fbt_gdb.sh BUILD_DIR HOST_DIR     (BOARD in the environment)
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
. "$here/test/stacks/stacks_lib.sh"
board=${BOARD:-mps2-an385}
img=$B/dtrace.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap 'kill $qpid 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..7"
# Functions with arguments of every kind the table types (pointers, bool, 32- and 64-bit
# integers, arguments on the stack) and return values of those kinds, called tens to
# thousands of times by the demo; those this image's table does not let probe are left out.
# (The calls' untraced paths: a program of fbt probes alone turns no trace hook on, so the
# kernel entries are the untraced ones, as without dtrace: docs/dtrace-target.md.)
want="sched_make_ready ipc_send ipc_reply ktimer_ns_to_ticks
      proc_can_write thread_by_tid kstrncmp thread_arm_timeout proc_copy_string"
"$H/dtrace" --kernel "$img" -l -P fbt > "$tmp/list" 2>&1
funcs=""
for f in $want; do
    grep -q " $f entry$" "$tmp/list" && grep -q " $f return$" "$tmp/list" && funcs="$funcs $f"
done
nf=$(echo $funcs | wc -w)
check "$nf of the oracle's functions can be probed in this image (at least 6)" '[ "$nf" -ge 6 ]'
# The D side: counts, first arguments, first return values, in few clauses (x86-pc carries
# the program's text on its boot command line, at most 2047 bytes).
entries=$(for f in $funcs; do printf 'fbt::%s:entry,' "$f"; done)
returns=$(for f in $funcs; do printf 'fbt::%s:return,' "$f"; done)
{   # small strings (probefunc in a record takes strsize bytes), few aggregation rows and a
    # quick switch keep a board's small principal buffer from dropping the samples
    printf '#pragma D option strsize=32\n#pragma D option aggsize=4k\n'
    printf '#pragma D option dynvarsize=4k\n#pragma D option switchrate=10ms\n'
    printf '%s { @c[probefunc] = count(); }\n' "${entries%,}"
    printf '%s /fa[probefunc] < 5/ { fa[probefunc]++;' "${entries%,}"
    printf ' printf("ARGS %%s %%d %%d %%d %%d %%d %%d %%d %%d %%d\\n", probefunc, fa[probefunc],'
    printf ' arg0, arg1, arg2, arg3, arg4, arg5, arg6, arg7);'
    printf ' printf("STACK %%s %%d", probefunc, fa[probefunc]); stack(); }\n'
    printf '%s /fr[probefunc] < 5/ { fr[probefunc]++;' "${returns%,}"
    printf ' printf("RET %%s %%d %%d\\n", probefunc, fr[probefunc], arg1); }\n'
    printf 'END { printa("COUNT %%s %%@d\\n", @c); }\n'
} > "$tmp/oracle.d"
"$H/dcompile" --kernel "$img" -q -s "$tmp/oracle.d" -o "$tmp/oracle.dobj" 2> "$tmp/dcompile.err"
ok $? "dcompile --kernel compiles the oracle's D program"
addrs=""
nm=$(case $board in x86-pc) echo i686-linux-gnu-nm;; qemu-virt-a53|raspi3b) echo aarch64-linux-gnu-nm;; *) echo arm-none-eabi-nm;; esac)
for f in $funcs; do
    a=$($nm "$img" | awk -v f="$f" '$3 == f && $2 ~ /[tT]/ { print $1; exit }')
    addrs="$addrs $f:0x$(printf '%x' $((0x$a & ~1)))"
done
gdb=$tmp/gdb.sock   # QEMU's gdbstub: a UNIX socket of this run's own
if uart_board "$board"; then     # no host files: the board compiles the text
    args="dtrace -q -c init -n '$(cat "$tmp/oracle.d")'"
else
    args="dtrace -q -c init $tmp/oracle.dobj"
fi
# No hang cut (QEMU_HANG=0): gdb's stop at every breakpoint paces the guest, whose clock
# (-icount) runs only between stops, so a quiet stretch of the program's own (raspi3b: ~145 ms
# of guest time after the worker's last line) can take the host more than the runner's 45 s
# without anything being stuck; QEMU_TIMEOUT and gdb's own timeout bound the run.
QEMU_HANG=0 QEMU_ARGS=$args QEMU_ICOUNT=1 QEMU_TIMEOUT=${QEMU_TIMEOUT:-300} \
    "$here/scripts/qemu-run.sh" "$img" -S -gdb "unix:$gdb,server=on,wait=off" > "$tmp/run.out" 2>&1 &
qpid=$!
sock_wait "$gdb"
FBT_FUNCS=$addrs FBT_OUT=$tmp/gdb.out timeout 600 gdb-multiarch -batch -nx -ex "file $img" \
    -ex "target remote $gdb" -ex "source $here/test/qemu/fbt_gdb.py" \
    > "$tmp/gdb.log" 2>&1
wait $qpid
rc=$?
ok $rc "the image ran to its end under gdb (status $rc)"
[ $rc = 0 ] || sed 's/^/# /' "$tmp/run.out" | tail -20
# D's lines; stack( )'s frames (a line each after its STACK line) joined onto that line
con_of dtrace < "$tmp/run.out" | awk '
    /^STACK / { if (s != "") print s; s = $0; next }
    s != "" && $1 ~ /^0x[0-9a-f]+$/ && NF == 1 { s = s " " $1; next }
    { if (s != "") print s; s = "" }
    /^(COUNT|ARGS|RET) / { print }
    END { if (s != "") print s }' > "$tmp/d.out"
# counts: every function's, equal
bad=0
called=""
for f in $funcs; do
    d=$(awk -v f="$f" '$1 == "COUNT" && $2 == f { print $3 }' "$tmp/d.out")
    g=$(awk -v f="$f" '$1 == "COUNT" && $2 == f { print $3 }' "$tmp/gdb.out")
    echo "# $f: fbt::$f:entry fired ${d:-0} times, gdb's breakpoint was hit ${g:-?} times"
    [ -n "$g" ] && [ "${d:-0}" = "$g" ] || bad=1
    [ "${g:-0}" -gt 0 ] && called="$called $f"   # (a board's kernel may not call one at all)
done
nc=$(echo $called | wc -w)
check "every function's fbt::F:entry count equals gdb's hit count ($nc of them called, at least 6)" \
    '[ $bad = 0 ] && [ "$nc" -ge 6 ]'
# arguments: each value gdb could read, equal (as 64-bit two's complement)
python3 - "$tmp/d.out" "$tmp/gdb.out" "$called" > "$tmp/cmp.out" <<'EOF'
import sys
def table(path, kind):    # (name, call) -> values
    t = {}
    for line in open(path):
        w = line.split()
        if len(w) >= 3 and w[0] == kind:
            t[(w[1], w[2])] = w[3:]
    return t
d_args, g_args = table(sys.argv[1], "ARGS"), table(sys.argv[2], "ARGS")
d_ret, g_ret = table(sys.argv[1], "RET"), table(sys.argv[2], "RET")
m = (1 << 64) - 1
nargs = nret = bad = 0
for f in sys.argv[3].split():
    calls = [k for k in g_args if k[0] == f]
    if not calls or calls[0] not in d_args:
        print("# %s: no sampled call (gdb %s)" % (f, calls)); bad += 1; continue
    key = calls[0]
    ga, da = g_args[key], d_args[key]
    for k, v in enumerate(ga):
        if v == "-":
            continue
        nargs += 1
        if int(da[k]) & m != int(v) & m:
            print("# %s call %s: args[%d] D %s, gdb %s" % (f, key[1], k, da[k], v)); bad += 1
    if key in g_ret:
        nret += 1
        dv = d_ret.get(key, ["(none)"])[0]
        if dv == "(none)" or int(dv) & m != int(g_ret[key][0]) & m:
            print("# %s call %s: return value D %s, gdb %s" % (f, key[1], dv, g_ret[key][0]))
            bad += 1
d_st, g_st = table(sys.argv[1], "STACK"), table(sys.argv[2], "STACK")
nst = nframes = 0
for key, g in g_st.items():
    d = d_st.get(key)
    if d is None:
        print("# %s call %s: no stack( ) from D" % key); bad += 1; continue
    # Each walk ends where its unwinder does (D's at the exception entry; gdb's at the
    # entry, or earlier where its DWARF unwinder gives up): the frames both give, equal
    n = min(len(d), len(g))
    if len(d) < 2 or n < 1 or [int(x, 16) for x in d[:n]] != [int(x, 16) for x in g[:n]]:
        print("# %s call %s: stack( ) %s, gdb's callers %s" % (key[0], key[1], d, g)); bad += 1
    nst += 1
    nframes += len(d)
print("ARGS %d RET %d STACKS %d FRAMES %d BAD %d" % (nargs, nret, nst, nframes, bad))
EOF
sed -n '/^#/p' "$tmp/cmp.out"
read -r _ nargs _ nret _ nst _ nfr _ nbad < <(grep '^ARGS' "$tmp/cmp.out")
check "the first call's arguments D prints equal gdb's info args ($nargs values)" \
    '[ "${nbad:-1}" = 0 ] && [ "${nargs:-0}" -ge 10 ]'
check "the first return values D prints equal gdb's finish ($nret values)" \
    '[ "${nbad:-1}" = 0 ] && [ "${nret:-0}" -ge 4 ]'
check "stack( ) at each sampled call gives gdb's bt callers, frame for frame ($nst stacks, $nfr frames)" \
    '[ "${nbad:-1}" = 0 ] && [ "${nst:-0}" -ge 6 ]'
