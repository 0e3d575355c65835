# SPDX-License-Identifier: MIT
# deadlock: an ABBA deadlock broken by a timeout, for the analysis tools (main.c;
# docs/waits.md; test/qemu/test_sync_apps.sh). PRIO: main (20) above a and b (10).
PRIO  := 20
