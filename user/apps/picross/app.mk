# SPDX-License-Identifier: MIT
# picross: priority inheritance across CPUs, for the capture test (main.c;
# test/qemu/test_pi_cpus.sh). PRIO: main (40) directs low (10), mid (20) and high (30).

PRIO  := 40

# Its image: under appinit, captured by the tracelogger; only on boards with several CPUs.
IMAGES        += $(call smp_only,picross)
picross_APPS  := appinit picross tracelogger
