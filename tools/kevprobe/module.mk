# SPDX-License-Identifier: MIT
# kevprobe: the probe path's reader (GDB's remote protocol, the kernel's probe block).
HOST_TOOLS += $(H)/kevprobe
$(H)/kevprobe: $(call kevhost_objs,tools/kevprobe/kevprobe.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -ldw -lelf -lz
