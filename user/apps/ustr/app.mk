# SPDX-License-Identifier: MIT
# ustr: logs known string user events (trace_logf) and prints what it logged, for D reading
# their text live and over the capture (test/qemu/test_dtrace_ustr.sh; docs/d-probes.md).
PRIO  := 30
