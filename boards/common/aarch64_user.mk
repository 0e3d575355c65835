# SPDX-License-Identifier: MIT
# The AArch64 boards' programs (qemu-virt-a53, raspi3b: each user.mk includes this): picolibc
# through its specs file's path (aarch64.mk), and the casts of 32-bit user addresses allowed.
LIBC_SPECS := --specs=$(PICOLIBC_SPECS)
ULDFLAGS   := $(ARCH_CFLAGS) $(LIBC_SPECS) --oslib=semihost -nostartfiles \
              -Wl,--gc-sections -DPICOLIBC_DOUBLE_PRINTF_SCANF
# Programs keep addresses in 32-bit kernel-call arguments and trace words (user memory lies
# below 4 GB): the casts that say so are not errors here.
LIBC_SPECS += -Wno-pointer-to-int-cast -Wno-int-to-pointer-cast
