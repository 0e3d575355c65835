# SPDX-License-Identifier: MIT
# kevrelay: the trace stream UART of a board in QEMU to a live reader (scripts/qemu-run.sh,
# QEMU_STREAM), with flow control so that a reader that stops never stalls QEMU.
HOST_TOOLS += $(H)/kevrelay
$(H)/kevrelay: $(call kevhost_objs,tools/kevrelay/kevrelay.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^
