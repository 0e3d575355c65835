# SPDX-License-Identifier: MIT
# Programs and images on qemu-virt-a53 (included by user/module.mk after its defaults).
# picolibc for AArch64 is found through its specs file's path (board.mk).
LIBC_SPECS := --specs=$(PICOLIBC_SPECS)
ULDFLAGS   := $(ARCH_CFLAGS) $(LIBC_SPECS) --oslib=semihost -nostartfiles \
              -Wl,--gc-sections -DPICOLIBC_INTEGER_PRINTF_SCANF
IMAGES     := ktest demo kbench kbench_notrace tflood
# Programs keep addresses in 32-bit kernel-call arguments and trace words (user memory lies
# below 4 GB): the casts that say so are not errors here.
LIBC_SPECS += -Wno-pointer-to-int-cast -Wno-int-to-pointer-cast
