# SPDX-License-Identifier: MIT
# hang: hangs the system with the trace ring as a flight recorder, for kevdump's test
# (test/qemu/test_flight.sh) (user/module.mk reads this file: docs/applications.md).
PRIO  := 250
FLAGS := KAPP_F_TRACE|KAPP_F_PRIV

IMAGES      += flight
flight_APPS := hang tracelogger
# The forced kernel fault of hang's "crash" (test/qemu/test_kfault.sh): this image only.
flight_KOBJS := kernel/kcrash.c
