# SPDX-License-Identifier: MIT
# pulselost: a timer whose pulses nobody receives for a while, so that a known number of them
# is lost (main.c), the truth of the trace's TIMER_LOST events (test/qemu/test_pulse_lost.sh).
PRIO  := 100

# The test's image: pulselost under appinit, captured by the tracelogger.
IMAGES          += pulselosttest
pulselosttest_APPS := appinit pulselost tracelogger
