# SPDX-License-Identifier: MIT
# auditor: a low-priority auditor holding a mutex a high-priority consumer needs, and a client
# sending to a server from above and from below its priority, each counted by the program
# itself (main.c; docs/waits.md; test/qemu/test_auditor.sh).
# PRIO: main directs the others (auditor 10, server 20, consumer 30, client 35 then 5).
PRIO  := 40
EXTRA := user/lib/busy.c   # the spin loop and CPU 0 binding (busy.h)

# The image of test/qemu/test_auditor.sh: the program under appinit, captured by the
# tracelogger.
IMAGES           += auditortest
auditortest_APPS := appinit auditor tracelogger
