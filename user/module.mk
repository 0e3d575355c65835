# SPDX-License-Identifier: MIT
# User programs and boot images.
#
# Every program is a directory user/apps/<name>/ (or tracelogger/) linked on its own, against
# picolibc (or newlib-nano with LIBC=newlib), for its own flash and RAM slot. A program's slot
# is its position in ALL_APPS: append new programs at the end.
# Per program, optional: <name>_FLAGS (KAPP_F_*), <name>_PRIO, <name>_MMIO (base size),
# <name>_STACK (main stack bytes), <name>_DIR (source directory), <name>_EXTRA (more sources,
# e.g. from trace/).
#
# A boot image is the kernel plus a set of programs; the first one listed is started as pid 1.

ALL_APPS := init srv client ticker driver worker ktest kt_peer kt_fault kbench tracelogger \
            tflood dtrace

init_PRIO    := 20
srv_PRIO     := 12
client_PRIO  := 10
ticker_PRIO  := 30
driver_FLAGS := KAPP_F_IO
driver_PRIO  := 40
driver_MMIO  := $(BOARD_DEVTIMER_WINDOW)
worker_PRIO  := 5
ktest_PRIO   := 100
ktest_FLAGS  := KAPP_F_IO|KAPP_F_TRACE
ktest_MMIO   := $(BOARD_DEVTIMER_WINDOW)
kt_peer_PRIO := 50
kt_fault_PRIO := 50
kt_fault_EXTRA := user/arch/$(ARCH)/fault_arch.c
kbench_PRIO  := 100
kbench_FLAGS := KAPP_F_IO|KAPP_F_TRACE

tracelogger_DIR   := tracelogger
tracelogger_EXTRA := trace/kev_file.c trace/kev_stream.c
tracelogger_FLAGS := KAPP_F_TRACE|KAPP_F_IO
tracelogger_PRIO  := 200
tracelogger_MMIO  := $(BOARD_TRACE_UART_WINDOW)
init_FLAGS   := KAPP_F_TRACE
tflood_FLAGS := KAPP_F_TRACE
tflood_PRIO  := 50

# The target's dtrace: the consumer of trace/d, with the two calls that change aggregations
# renamed to kernel calls (its view of the engine is read-only).
dtrace_FLAGS := KAPP_F_TRACE
dtrace_PRIO  := 150
dtrace_EXTRA := trace/d/consume.c trace/d/fmt.c trace/d/agg.c trace/d/vm.c trace/d/engine.c \
                trace/d/verify.c trace/d/probes.c
dtrace_STACK := 0x800
$(B)/apps/dtrace/obj/trace/d/consume.c.o: UCFLAGS += -Ddvm_agg_clear=kdt_user_agg_clear \
                                               -Ddvm_agg_remove=kdt_user_agg_remove

IMAGES := demo ktest kbench kbench_notrace tflood dtrace
dtrace_APPS := dtrace init srv client ticker driver worker
demo_APPS   := init srv client ticker driver worker tracelogger
tflood_APPS := tflood tracelogger
ktest_APPS  := ktest kt_peer kt_fault
kbench_APPS := kbench kt_peer
kbench_notrace_APPS  := kbench kt_peer
kbench_notrace_KLIB  := kernel-notrace

# The C library: picolibc (default) with its own linker script and semihost layer, or
# newlib-nano with ours (ldscripts/app-newlib.ld) and system calls over the same kernel proxy.
ifeq ($(LIBC),picolibc)
LIBC_SPECS := --specs=picolibc.specs
ULDFLAGS   := $(ARCH_CFLAGS) $(LIBC_SPECS) --oslib=semihost -nostartfiles \
              -Wl,--gc-sections -DPICOLIBC_INTEGER_PRINTF_SCANF
else ifeq ($(LIBC),newlib)
LIBC_SPECS := --specs=nano.specs
ULDFLAGS   := $(ARCH_CFLAGS) $(LIBC_SPECS) -nostartfiles -Wl,--gc-sections \
              -T ldscripts/app-newlib.ld
else ifeq ($(LIBC),board)
# The board's own runtime (an architecture with no Debian C library): board.mk or user.mk
# gives BOARD_LIBC_CFLAGS, BOARD_ULDFLAGS and BOARD_USER_LIB_SRCS.
LIBC_SPECS := $(BOARD_LIBC_CFLAGS)
ULDFLAGS   := $(BOARD_ULDFLAGS)
else
$(error LIBC must be picolibc, newlib or board, not '$(LIBC)')
endif
# A board may change the above (programs, images, sizes) in boards/<board>/user.mk.
-include boards/$(BOARD)/user.mk

UCFLAGS := $(ARCH_CFLAGS) $(LIBC_SPECS) -std=gnu11 -O2 -g $(TWARN) \
           -ffunction-sections -fdata-sections -Iuser/include -Ikernel/include -Itrace/include \
           -Iuser/arch/$(ARCH)/include -Iboards/$(BOARD) $(BOARD_DEFS) -MMD -MP

USER_LIB_SRCS := user/lib/kcalls.c user/lib/crt0.c \
                 $(if $(filter board,$(LIBC)),$(BOARD_USER_LIB_SRCS),user/lib/libc_$(LIBC).c)
USER_LIB_OBJS := $(patsubst %,$(B)/obj/%.o,$(USER_LIB_SRCS))

$(B)/obj/user/%.c.o: user/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(UCFLAGS) -c $< -o $@

# _app_before NAME, LIST: one word per program listed before NAME (its slot number).
_app_before = $(if $(filter $(1),$(firstword $(2))),,x $(call _app_before,$(1),$(wordlist 2,$(words $(2)),$(2))))
hexsum = $(shell printf '0x%08x' $$(( $(1) )))

define APP_template
$(1)_SLOT  := $$(words $$(call _app_before,$(1),$$(ALL_APPS)))
$(1)_DIR   ?= user/apps/$(1)
$(1)_SRCS  := $$(wildcard $$($(1)_DIR)/*.c) $$($(1)_EXTRA)
$(1)_OBJS  := $$(patsubst %,$(B)/apps/$(1)/obj/%.o,$$($(1)_SRCS)) $(B)/apps/$(1)/apphdr.o
$(1)_FLASH := $$(call hexsum,$(APP_FLASH_BASE) + $$($(1)_SLOT) * $(APP_FLASH_SLOT))
$(1)_RAM   := $$(call hexsum,$(APP_RAM_BASE) + $$($(1)_SLOT) * $(APP_RAM_SLOT))

$$(patsubst %,$(B)/apps/$(1)/obj/%.o,$$($(1)_SRCS)): $(B)/apps/$(1)/obj/%.c.o: %.c
	@mkdir -p $$(dir $$@)
	@echo "  CC      $$<"
	$$(Q)$$(CC) $$(UCFLAGS) -I$$($(1)_DIR) -c $$< -o $$@

$(B)/apps/$(1)/apphdr.o: user/lib/apphdr.c user/module.mk
	@mkdir -p $$(dir $$@)
	$$(Q)$$(CC) $$(UCFLAGS) -DAPP_NAME='"$(1)"' -DAPP_FLAGS='($$(or $$($(1)_FLAGS),0))' \
	    -DAPP_PRIO=$$(or $$($(1)_PRIO),10) \
	    -DAPP_MMIO_BASE=$$(or $$(word 1,$$($(1)_MMIO)),0) \
	    -DAPP_MMIO_SIZE=$$(or $$(word 2,$$($(1)_MMIO)),0) -c $$< -o $$@

# The runtime goes in as objects, not an archive: its sys_semihost and _exit must win over
# picolibc's, which the C library's own references would otherwise pull in.
$(B)/apps/$(1).elf: $$($(1)_OBJS) $(USER_LIB_OBJS) boards/$(BOARD)/board.mk \
                   $$(wildcard boards/$(BOARD)/user.mk)
	@echo "  LD      $$@ (slot $$($(1)_SLOT))"
	$$(Q)$$(CC) $$(ULDFLAGS) -o $$@ $$($(1)_OBJS) $(USER_LIB_OBJS) \
	    -Wl,--defsym=__flash=$$($(1)_FLASH) -Wl,--defsym=__flash_size=$(APP_FLASH_SLOT) \
	    -Wl,--defsym=__ram=$$($(1)_RAM) -Wl,--defsym=__ram_size=$(APP_RAM_SLOT) \
	    -Wl,--defsym=__stack_size=$$(or $$($(1)_STACK),0x1000) -Wl,-Map=$$@.map

$(B)/apps/$(1).bin: $(B)/apps/$(1).elf
	$$(Q)$$(OBJCOPY) -O binary $$< $$@
endef
$(foreach a,$(ALL_APPS),$(eval $(call APP_template,$(a))))

# apps.S of an image: each program's flash image at its slot offset, and the boot program.
define IMAGE_template
$(B)/$(1)/apps.S: user/module.mk $$(foreach a,$$($(1)_APPS),$(B)/apps/$$(a).bin)
	@mkdir -p $$(dir $$@)
	$$(Q){ echo '    .section .apps, "a"'; \
	  printf '%s\n' $$(foreach a,$$($(1)_APPS),'$$($$(a)_SLOT):$$(a)') | sort -n | \
	  while IFS=: read slot name; do \
	    printf '    .org %d\n    .incbin "$(B)/apps/%s.bin"\n' $$$$((slot * $(APP_FLASH_SLOT))) $$$$name; \
	  done; \
	  echo '    .section .rodata.boot_app_name, "a"'; \
	  echo '    .global boot_app_name'; \
	  echo 'boot_app_name:'; \
	  echo '    .asciz "$$(firstword $$($(1)_APPS))"'; } > $$@

$(B)/$(1)/apps.o: $(B)/$(1)/apps.S
	$$(Q)$$(CC) $$(ARCH_CFLAGS) -c $$< -o $$@

$(1)_KLIB ?= kernel
$(B)/$(1).elf: $(B)/$(1)/apps.o $(B)/$$($(1)_KLIB).a $(B)/kernel.ld
	@echo "  IMAGE   $$@ ($$($(1)_APPS))"
	$$(Q)$$(CC) $$(ARCH_CFLAGS) -nostdlib -T $(B)/kernel.ld -Wl,--gc-sections \
	    -Wl,-Map=$$@.map -o $$@ $(B)/$(1)/apps.o -Wl,--whole-archive $(B)/$$($(1)_KLIB).a \
	    -Wl,--no-whole-archive -lgcc
endef
$(foreach i,$(IMAGES),$(eval $(call IMAGE_template,$(i))))

IMAGES_ELF := $(patsubst %,$(B)/%.elf,$(IMAGES))

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
