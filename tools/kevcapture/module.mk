# SPDX-License-Identifier: MIT
# kevcapture: rebuilds a .kev from the tracelogger's framed UART stream (the live reader).
HOST_TOOLS += $(H)/kevcapture
$(H)/kevcapture: $(call kevhost_objs,tools/kevcapture/kevcapture.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lz
