# SPDX-License-Identifier: MIT
# kcerr: makes kernel calls that fail with known errnos and prints each call and the errno it
# got, the truth D's errno at kercall:::return is held to, live and over the capture
# (test/qemu/test_dtrace_errno.sh; docs/d-probes.md).
PRIO  := 30
