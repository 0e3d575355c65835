#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Solaris's interrupt device structures in D (d/ddevinfo.h): the Guide's sdt/intr.d idiom,
# (struct dev_info *)arg0 at sdt:::interrupt-complete with its devi_major and devi_instance and
# `devnamesp[devi_major].dn_name, counts each device's interrupts live on the board (dtrace -K
# -c appinit, as make dtrace) and with dtrace -i over the same boot's capture. user/apps/irqrate
# runs the board's device timer at 1 kHz for 150 ms through the normal driver path and prints
# how many interrupts it took. Truths: irqrate's own count is its line's row, both ways (one
# more when the device fired once after irqrate's last receive, before it stopped the timer:
# that pulse is never received); that row is named as the board's table names the line
# (boards/<b>/board_irqdev.h: "timer0" on mps2-an385, "cntp0" on qemu-virt-a53); the two
# outputs are equal byte for byte; the capture's system page names the same devices (so
# dtrace -i does not fall back to "irqN"). The same script prints a 272-byte record at each
# interrupt's start (1 kHz of them fill the default 8k buffer in 30 ms, where the switchrate is
# 1 s: the board's dtrace reads as often as the buffer fills): none is dropped, and the
# device's line is printed once per interrupt irqrate took. One boot of about 2 s.
#   test/qemu/test_d_irqdev.sh BUILD_DIR HOST_DIR
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/console.sh"
. "$here/test/qemu/tap_lib.sh"
board=${BOARD:-mps2-an385}
TAP_PREFIX="$board: "
img=$B/irqdevtest.elf
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..7"

cat > "$tmp/intr.d" <<'D'
#pragma D option quiet
sdt:::interrupt-start
{
	printf("%s %d\n", execname, (int)arg0);
}

sdt:::interrupt-complete
{
	this->devi = (struct dev_info *)arg0;
	@n[stringof(`devnamesp[this->devi->devi_major].dn_name),
	    this->devi->devi_instance] = count();
}
END
{
	printa("%s%d %@d\n", @n);
}
D
"$H/dcompile" --kernel "$img" -s "$tmp/intr.d" -o "$tmp/intr.dobj" > "$tmp/cc.err" 2>&1
ok $? "the interrupt-device script compiles for the board"
[ -s "$tmp/cc.err" ] && sed 's/^/# /' "$tmp/cc.err"

(cd "$tmp" && QEMU_ICOUNT=exact QEMU_TIMEOUT=${QEMU_TIMEOUT:-120} \
    QEMU_ARGS="dtrace -K -c appinit $tmp/intr.dobj ;; appinit irqrate ;; tracelogger -d1 -f $tmp/trace.kev" \
    "$here/scripts/qemu-run.sh" "$img" > "$tmp/run.out" 2>&1)
rc=$?
con_of dtrace < "$tmp/run.out" | grep -v '^kernel: ' | grep -v '^dtrace: ' > "$tmp/live.out"
con_of dtrace < "$tmp/run.out" | grep '^dtrace: ' > "$tmp/live.err"
said=$(con_of irqrate < "$tmp/run.out" | grep 'interrupts in')
took=$(echo "$said" | sed -n 's/^irqrate: \([0-9]*\) interrupts in.*/\1/p')
line=$(echo "$said" | sed -n 's/.*(line \([0-9]*\))$/\1/p')
check "the boot ran to its end and irqrate counted its interrupts (status $rc: ${said:-nothing})" \
    "[ $rc = 0 ] && [ '${took:-0}' -gt 0 ] && [ -n '$line' ]"
[ $rc = 0 ] || tail -8 "$tmp/run.out" | sed 's/^/# /'

(cd "$tmp" && "$H/dtrace" -i "$tmp/trace.kev" -s "$tmp/intr.d" > "$tmp/cap.out" 2> "$tmp/cap.err")
crc=$?
check "dtrace -i over the capture exits 0 and finds the capture's devices ($crc)" \
    "[ $crc = 0 ] && ! grep -q 'names no interrupt devices' '$tmp/cap.err'"
sed 's/^/# stderr: /' "$tmp/cap.err" | head -4
grep -v '^[a-z]* [0-9]*$' "$tmp/live.out" | sed 's/^/# live: /'
check "the devices' counts over the capture are the live ones, byte for byte ($(wc -l < "$tmp/live.out") rows)" \
    "[ -s '$tmp/live.out' ] && cmp -s '$tmp/live.out' '$tmp/cap.out'"
cmp -s "$tmp/live.out" "$tmp/cap.out" || diff "$tmp/live.out" "$tmp/cap.out" | head -10 | sed 's/^/# /'
# the board's own name for the line, from its table: X(line, "name", major, instance)
dev=$(sed -n "s/.*X(${line:-x}, \"\([a-z0-9_]*\)\", [0-9]*, \([0-9]*\)).*/\1\2/p" "$here/boards/$board/board_irqdev.h")
got=$(sed -n "s/^${dev:-none} \([0-9]*\)$/\1/p" "$tmp/cap.out")
check "line ${line:-?} is the board's ${dev:-(unnamed)}, and its row holds irqrate's own ${took:-?} interrupts (${got:-no row})" \
    "[ -n '$dev' ] && [ -n '$got' ] && [ '$got' -ge '${took:-x}' ] && [ '$got' -le \$(( ${took:-0} + 1 )) ]"
# at 1 kHz for 150 ms (x86-pc's RTC: 1024 Hz), as test_irqrate.sh holds the capture's entries
check "that count is the programmed rate over irqrate's 150 ms (150 +- 2: ${got:-none})" \
    "[ -n '$got' ] && [ '$got' -ge 148 ] && [ '$got' -le 152 ]"
lines=$(grep -c " ${line:-x}\$" "$tmp/live.out")
check "a 272-byte record at each interrupt, 8k buffers read as they fill: no drops, line ${line:-?} printed ${lines} times for irqrate's ${took:-?} (+1)" \
    "! grep -q 'drop' '$tmp/live.err' && [ '$lines' -ge '${took:-x}' ] && [ '$lines' -le \$(( ${took:-0} + 1 )) ]"
