# SPDX-License-Identifier: MIT
# prioself: a thread that changes its own priority while it spins and times itself at each
# priority (main.c), the truth of the CPU time by priority (test/qemu/test_prio_split.sh).
# PRIO: its ceiling (a process may raise itself up to its app's priority); every priority it
# takes is above the tracelogger's (200), so nothing but an interrupt comes between its clock
# reads.
PRIO  := 250

# The test's image: prioself under appinit, captured by the tracelogger.
IMAGES          += priotest
priotest_APPS   := appinit prioself tracelogger
