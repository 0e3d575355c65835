#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# smpstress (user/apps/smpstress, docs/smp.md "Tests") on its board, through qemu-test.sh:
#   test/qemu/test_smpstress.sh IMAGE [qemu args...]
# Run under -icount (an -icount among the arguments), its command line says so (`smpstress
# icount`): time is then the instruction count, and its wake-up test holds every sleep to its
# bound; on the host's clock a virtual CPU the host does not run is late whatever the kernel
# does, and only early and lost wake-ups fail it.
# QEMU's own limit: the test's, less a margin (tests.list gives 300 s under -icount, 600 on the
# host's clock; qemu-test.sh takes it from scripts/run-tests.sh), unless set; run by hand,
# 540 s: qemu-test.sh's default 90 s is too short on a loaded host's clock.
set -u
img=$1; shift
[ -z "${RUN_TESTS_TIMEOUT:-}" ] && export QEMU_TIMEOUT=${QEMU_TIMEOUT:-540}
case " $* " in
*" -icount "*) export QEMU_ARGS="smpstress icount" ;;
esac
exec "$(dirname "$0")/../../scripts/qemu-test.sh" "$img" "$@"
