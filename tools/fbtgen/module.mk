# SPDX-License-Identifier: MIT
# fbtgen: the fbt table of a linked kernel image (docs/fbt.md), built into the image by its
# second link (user/module.mk's IMAGE_template). i386's instructions are sized by Capstone
# (libcapstone-dev, scripts/setup.sh).
FBTGEN_SRCS := tools/fbtgen/fbtgen.c tools/common/fbt_thumb.c tools/common/fbt_a64.c \
               tools/common/fbt_i386.c trace/d/dfbt.c
HOST_TOOLS  += $(H)/fbtgen

$(H)/fbtgen: $(call kevhost_objs,$(FBTGEN_SRCS))
	@mkdir -p $(dir $@)
	@echo "  HOSTLD  $@"
	$(Q)$(HOST_CC) $^ -o $@ -ldw -lelf -lcapstone
