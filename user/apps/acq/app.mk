# SPDX-License-Identifier: MIT
# acq: a 1 kHz interrupt-driven acquisition with a filter server, a logger, a supervisor and a
# CPU-bound hog, one mutex, one semaphore and a deliberate priority inversion (docs/applications.md,
# "A real application: acq"). user/module.mk reads this file.
PRIO  := 40
FLAGS := KAPP_F_IO
MMIO  := $(BOARD_DEVTIMER_WINDOW)
STACK := 2048
RAM   := 16384

# Its boot image for the test (test/qemu/test_acq.sh): as make run APPS=acq.
IMAGES       += acqtest
acqtest_APPS := appinit acq tracelogger

# The parity test's image over acq (test/qemu/test_dprobe_parity.sh ... acq): acq under dtrace,
# with appinit and the tracelogger, so that one boot gives the live answer and a capture of the
# run (as make dtrace APPS=acq; not on a board without the dtrace image).
IMAGES          += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,acqparity)
acqparity_APPS  := dtrace appinit acq tracelogger
