# SPDX-License-Identifier: MIT
# Programs and images on x86-pc (included by user/module.mk after its defaults). ALL_APPS and
# its order stay as they are (a program's slot is its position). Only the images whose
# programs need nothing the PC lacks are built. The tracelogger takes its options through
# semihosting and writes host files, neither of which a PC has, so the demo runs without it
# (init then skips tracing); see docs/x86.md.
IMAGES    := ktest demo
demo_APPS := init srv client ticker driver worker
