# SPDX-License-Identifier: MIT
# stackbad: kernel calls made over corrupt and hostile stacks, for ustack( )'s hostile-stack
# test (test/stacks/test_stacks_hostile.sh, docs/profiling.md).
PRIO := 10

IMAGES         += $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,stackbad)
stackbad_APPS  := dtrace appinit stackbad tracelogger
