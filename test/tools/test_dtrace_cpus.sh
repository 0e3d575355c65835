#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The host's dtrace over a capture from several CPUs (kevscen4's two-CPU scenario): `cpu` is
# the CPU each event was recorded on, each CPU has its own buffers and aggregations, and
# -x cpu=N replays CPU N's events alone (docs/smp.md, "D on several CPUs").
# usage: test_dtrace_cpus.sh [BINDIR [SCRATCHDIR]]  (defaults: build/host build/host-test/kevconv)
set -u
bin=${1:-build/host}
here=$(dirname "$0")
. "$here/tap.sh"
scratch dcpus "${2:-build/host-test/kevconv}"
"${KEVSCEN4:-build/host-test/kevscen4}" smp "$dir/smp.kev" >/dev/null
prog='sched:::on-cpu { @[cpu, execname] = count(); } END { printa("%d %s %@d\n", @); }'
"$bin/dtrace" -q -i "$dir/smp.kev" -n "$prog" >"$dir/all.out" 2>"$dir/all.err"
check "on-cpu by CPU: the worker on CPU 0, the client on CPU 1, the server on both (20 each)" \
    bash -c "grep -qx '0 worker 20' '$dir/all.out' && grep -qx '1 client 20' '$dir/all.out' &&
             grep -qx '0 server 20' '$dir/all.out' && grep -qx '1 server 20' '$dir/all.out'"
"$bin/dtrace" -q -x cpu=1 -i "$dir/smp.kev" -n "$prog" >"$dir/one.out" 2>"$dir/one.err"
check "-x cpu=1: CPU 1's events alone (client, server)" \
    bash -c "grep -qx '1 client 20' '$dir/one.out' && grep -qx '1 server 20' '$dir/one.out' &&
             ! grep -q '^0 ' '$dir/one.out'"
"$bin/dtrace" -q -x ncpus=2 -x cpu=3 -i "$dir/smp.kev" -n 'BEGIN { exit(0); }' >"$dir/bad.out" 2>"$dir/bad.err"
rc=$?
check "-x cpu=3 with two CPUs (-x ncpus=2) is refused (exit $rc)" \
    bash -c "[ $rc = 1 ] && grep -q 'cpu option: no CPU 3' '$dir/bad.err'"
finish
