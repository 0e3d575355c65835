# SPDX-License-Identifier: MIT
# relay: a wait behind a wait: a client's send to a server that waits on a mutex another thread
# holds, each wait measured by the program itself, for the wait-chain analysis (main.c;
# docs/waits.md; test/qemu/test_tasks.sh, image tasktest in user/apps/cadence/app.mk).
# PRIO: main is the holder (8), below the server (12) and the client (15).
PRIO  := 8
EXTRA := user/lib/busy.c   # the calibrated busy loop and CPU 0 binding (busy.h)
