# SPDX-License-Identifier: MIT
# User programs and boot images.
#
# Every program is a directory user/apps/<name>/ (or tracelogger/) linked on its own, against
# picolibc (or newlib-nano with LIBC=newlib), for its own flash and RAM slot. A program's slot
# is its position in ALL_APPS: append new programs at the end.
# Per program, optional: <name>_FLAGS (KAPP_F_*), <name>_PRIO, <name>_MMIO (base size),
# <name>_STACK (main stack bytes: checked after the link, see below), <name>_DIR (source
# directory), <name>_EXTRA (more sources, e.g. from trace/).
# A board short of memory may place a program itself (boards/<b>/user.mk):
#   <name>_SLOT      its flash slot (default: its position in ALL_APPS), below APP_MAX_SLOTS
#   <name>_RAM_SLOT  its RAM size (default APP_RAM_SLOT): a power of two
#   <name>_RAM_BASE  its RAM base (default APP_RAM_BASE + slot * APP_RAM_SLOT), aligned on
#                    its RAM size (the MPU maps it as one region)
# Programs of one image must not share a flash slot or overlap in RAM (checked when the image
# is built); programs of different images may.
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

# The target's dtrace: the compiler and consumer of trace/d, with the two calls that change
# aggregations renamed to kernel calls (its view of the engine is read-only). It compiles on
# the board when the board gives it a compiler arena (DTRACE_CC_ARENA, boards/<b>/user.mk).
dtrace_FLAGS := KAPP_F_TRACE
dtrace_PRIO  := 150
dtrace_EXTRA := trace/d/consume.c trace/d/fmt.c trace/d/agg.c trace/d/vm.c trace/d/engine.c \
                trace/d/verify.c trace/d/probes.c trace/d/dobj_opts.c trace/d/lex.c \
                trace/d/parse.c trace/d/cg.c trace/d/dcpp.c
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

# The main thread's stack runs down from the top of the program's RAM towards its data.
# picolibc's linker script reserves 0x800 for it whatever __stack_size says (--defsym comes
# after the script's DEFINED() test), so the room is checked here, for every C library:
# RAM top - end of data (__bss_end, or newlib's __heap_start) >= <name>_STACK, or when none is
# given APP_STACK_MIN (picolibc's own reservation). newlib's and x86's scripts reserve
# __stack_size (<name>_STACK, default 0x1000) themselves.
APP_STACK_MIN := 0x800
check_stack = end=$$($(CROSS)nm $(1) | awk '$$3 == "__bss_end" || $$3 == "__heap_start" { print $$1; exit }'); \
    room=$$(( $(2) + $(3) - 0x$$end )); \
    if [ $$room -lt $$(( $(4) )) ]; then \
        echo "$(1): $(5) leaves $$room bytes for its stack, under $(4)" >&2; rm -f $(1); exit 1; fi

# _app_before NAME, LIST: one word per program listed before NAME (its slot number).
_app_before = $(if $(filter $(1),$(firstword $(2))),,x $(call _app_before,$(1),$(wordlist 2,$(words $(2)),$(2))))
hexsum = $(shell printf '0x%08x' $$(( $(1) )))

define APP_template
$(1)_SLOT  := $$(or $$($(1)_SLOT),$$(words $$(call _app_before,$(1),$$(ALL_APPS))))
$(1)_DIR   ?= user/apps/$(1)
$(1)_SRCS  := $$(wildcard $$($(1)_DIR)/*.c) $$($(1)_EXTRA)
$(1)_OBJS  := $$(patsubst %,$(B)/apps/$(1)/obj/%.o,$$($(1)_SRCS)) $(B)/apps/$(1)/apphdr.o
$(1)_FLASH := $$(call hexsum,$(APP_FLASH_BASE) + $$($(1)_SLOT) * $(APP_FLASH_SLOT))
$(1)_RAMSZ := $$(or $$($(1)_RAM_SLOT),$(APP_RAM_SLOT))
$(1)_RAM   := $$(call hexsum,$$(or $$($(1)_RAM_BASE),$(APP_RAM_BASE) + $$($(1)_SLOT) * $(APP_RAM_SLOT)))

$$(patsubst %,$(B)/apps/$(1)/obj/%.o,$$($(1)_SRCS)): $(B)/apps/$(1)/obj/%.c.o: %.c
	@mkdir -p $$(dir $$@)
	@echo "  CC      $$<"
	$$(Q)$$(CC) $$(UCFLAGS) -I$$($(1)_DIR) -c $$< -o $$@

$(B)/apps/$(1)/apphdr.o: user/lib/apphdr.c user/module.mk boards/$(BOARD)/board.mk
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
	    -Wl,--defsym=__ram=$$($(1)_RAM) -Wl,--defsym=__ram_size=$$($(1)_RAMSZ) \
	    -Wl,--defsym=__stack_size=$$(or $$($(1)_STACK),0x1000) -Wl,-Map=$$@.map
	$$(Q)$$(call check_stack,$$@,$$($(1)_RAM),$$($(1)_RAMSZ),$$(or $$($(1)_STACK),$(APP_STACK_MIN)),$(1))

$(B)/apps/$(1).bin: $(B)/apps/$(1).elf
	$$(Q)$$(OBJCOPY) -O binary $$< $$@
endef
$(foreach a,$(ALL_APPS),$(eval $(call APP_template,$(a))))

# check_layout IMAGE, NAME:SLOT:RAMBASE:RAMSIZE...: the programs of one image have distinct
# flash slots below APP_MAX_SLOTS, RAM regions the MPU can map (a power of two aligned on its
# size) and RAM that does not overlap.
check_layout = for a in $(2); do echo $$a; done | tr : ' ' | { \
    seen=; while read n s b z; do \
      [ $$s -lt $(APP_MAX_SLOTS) ] || { echo "$(1): $$n in flash slot $$s, past APP_MAX_SLOTS" >&2; exit 1; }; \
      [ $$(( $$z & ($$z - 1) )) -eq 0 ] && [ $$(( $$b % $$z )) -eq 0 ] || \
        { echo "$(1): $$n's RAM ($$b, $$z bytes) is not a power of two aligned on its size" >&2; exit 1; }; \
      for o in $$seen; do set -- $$(echo $$o | tr : ' '); \
        [ $$s -ne $$2 ] || { echo "$(1): $$n and $$1 share flash slot $$s" >&2; exit 1; }; \
        [ $$(( $$b + $$z )) -le $$(( $$3 )) ] || [ $$(( $$3 + $$4 )) -le $$(( $$b )) ] || \
          { echo "$(1): $$n and $$1 overlap in RAM" >&2; exit 1; }; \
      done; seen="$$seen $$n:$$s:$$b:$$z"; done; }

# apps.S of an image: each program's flash image at its slot offset, and the boot program.
define IMAGE_template
$(B)/$(1)/apps.S: user/module.mk $$(foreach a,$$($(1)_APPS),$(B)/apps/$$(a).bin)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(call check_layout,$(1),$$(foreach a,$$($(1)_APPS),$$(a):$$($$(a)_SLOT):$$($$(a)_RAM):$$($$(a)_RAMSZ)))
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
