# SPDX-License-Identifier: MIT
# decide: a program whose scheduling decisions and kills are known to itself (main.c), the
# truth of sched:::remain-cpu and proc:::signal-send live and over the capture
# (test/qemu/test_decisions.sh). KAPP_F_PRIV: it kills its own children.
PRIO  := 10
FLAGS := KAPP_F_PRIV

# The test's image: decide under dtrace and appinit, captured by the tracelogger.
IMAGES          += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,decidetest)
decidetest_APPS := dtrace appinit decide decidevic tracelogger
