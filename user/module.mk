# SPDX-License-Identifier: MIT
# User programs and boot images.
#
# Every program is a directory user/apps/<name>/ holding its sources and an app.mk that
# describes it (docs/applications.md); the build finds them all (no list to edit here). The
# tracelogger (tracelogger/) is described the same way by tracelogger/app.mk. app.mk may set:
#   PRIO   scheduling priority (default 10)       FLAGS  KAPP_F_* (KAPP_F_TRACE, KAPP_F_IO)
#   MMIO   device window "base size"              STACK  main stack bytes (at its RAM's bottom)
#   RAM    RAM it needs, bytes (rounded up to a power of two, at least APP_RAM_SLOT)
#   URING  records in its user-event ring (user/lib/trace_uring.c; a power of two, 0 none;
#          default the board's BOARD_USER_RING_RECORDS or 64)
#   EXTRA  more sources (e.g. from trace/)
#   ARGS   its command-line arguments: main(argc, argv) receives argv[0] = its name, then these
#          words ('...' and "..." keep spaces); `make run APPS=<name> <name>_ARGS='...'` replaces
#          them for one build (user/lib/apphdr.c, crt0.c)
#   BACKGROUND  1: CPU-bound work with no deadline, which the tracelogger's stream is sent
#          above (the default send priority is below every other program of the image)
# and may declare boot images: IMAGES += <image> and <image>_APPS := <programs, pid 1 first>.
# Programs are linked per image: each image places its own programs (scripts/place-apps.sh), in
# its order, in the board's flash slots and RAM, so any board takes any program as long as the
# image fits; when it does not, building the image says why.
# A board may still place a program by hand (boards/<b>/user.mk): <name>_SLOT (flash slot),
# <name>_FLASH_SLOTS (flash slots in a row for a program larger than one; the kernel skips
# the slots a program's image covers), <name>_RAM_SLOT (RAM size), <name>_RAM_BASE (RAM
# base, aligned on the size); and a board may
# leave images out (BOARD_NO_IMAGES := <image>... with BOARD_NO_IMAGES_WHY := <reason>, in its
# board.mk, which is read before the programs' app.mk).
#
# (Programs not yet converted may still be listed the old way, ALL_APPS += <name> with
# <name>_PRIO etc. set here: they are built too.)

APP_DEFAULT_PRIO := 10
# paged_guard SMALL, PAGED: an app.mk's RAM, SMALL where a thread stack's guard is an MPU
# region's 128 bytes (KSTACK_GUARD, the architecture's arch.mk), PAGED where it is a 4 KB page:
# each thread's stack is then two pages or more (kern.h KSTACK), and a program with many
# threads needs a larger slot.
paged_guard = $(if $(filter 4096,$(KSTACK_GUARD)),$(2),$(1))
# smp_only IMAGES: an app.mk's IMAGES for a board with several CPUs (BOARD_MAX_CPUS in its
# board.mk), none on a board with one: `IMAGES += $(call smp_only,<image>)`.
smp_only = $(if $(filter-out 1,$(or $(BOARD_MAX_CPUS),1)),$(1))
APP_MKS  := $(sort $(wildcard user/apps/*/app.mk)) tracelogger/app.mk
ALL_APPS ?=
IMAGES   ?=

# APP_load NAME, APP.MK: reads one program's description into <name>_PRIO, <name>_FLAGS ...
define APP_load
PRIO  :=
FLAGS :=
MMIO  :=
STACK :=
RAM   :=
URING :=
EXTRA :=
ARGS  :=
BACKGROUND :=
APP   := $(1)
APP_DIR := $(patsubst %/,%,$(dir $(2)))
# (-include: a test's program directory removed between the wildcard above and here, by a test
# running beside this make, must not stop it; a program that is there is read as ever.)
-include $(2)
ALL_APPS += $(1)
$(1)_DIR   := $$(APP_DIR)
$(1)_PRIO  := $$(or $$(PRIO),$$($(1)_PRIO))
$(1)_FLAGS := $$(or $$(FLAGS),$$($(1)_FLAGS))
$(1)_MMIO  := $$(or $$(MMIO),$$($(1)_MMIO))
$(1)_STACK := $$(or $$(STACK),$$($(1)_STACK))
$(1)_RAM   := $$(or $$(RAM),$$($(1)_RAM))
$(1)_URING := $$(or $$(URING),$$($(1)_URING))
$(1)_EXTRA := $$(EXTRA) $$($(1)_EXTRA)
$(1)_ARGS  := $$(or $$(APP_MK_ARGS),$$($(1)_ARGS))
$(1)_BACKGROUND := $$(or $$(BACKGROUND),$$($(1)_BACKGROUND))
endef
# An app.mk's ARGS: `make dtrace ARGS=...` (the D program's $$1 ...) sets ARGS on make's command
# line, which would hide every app.mk's own; then each app.mk's line is read as text instead.
ifeq ($(origin ARGS),command line)
APP_MK_ARGS = $(shell sed -n 's/^ARGS[[:space:]]*:=[[:space:]]*//p' $(APP_DIR)/app.mk)
else
APP_MK_ARGS = $(ARGS)
endif
$(foreach m,$(APP_MKS),$(eval $(call APP_load,$(if $(filter tracelogger/%,$(m)),tracelogger,$(notdir $(patsubst %/app.mk,%,$(m)))),$(m))))
ALL_APPS := $(sort $(ALL_APPS))


# The C library: picolibc (default) with its own linker script and semihost layer, or
# newlib-nano with ours (ldscripts/app-newlib.ld) and system calls over the same kernel proxy.
# A board without one of them says so in its board.mk (BOARD_NO_NEWLIB, BOARD_NO_PICOLIBC):
# asking for it stops here with the reason, not in the compiler with a missing specs file.
ifneq ($(and $(filter newlib,$(LIBC)),$(BOARD_NO_NEWLIB))$(and $(filter picolibc,$(LIBC)),$(BOARD_NO_PICOLIBC)),)
$(error LIBC=$(LIBC): board $(BOARD) has no $(LIBC) (Debian packages none for its architecture); build it with its default, LIBC=$(or $(BOARD_LIBC_DEFAULT),picolibc))
endif
ifeq ($(LIBC),picolibc)
LIBC_SPECS := --specs=picolibc.specs
ULDFLAGS   := $(ARCH_CFLAGS) $(LIBC_SPECS) --oslib=semihost -nostartfiles \
              -Wl,--gc-sections -DPICOLIBC_DOUBLE_PRINTF_SCANF
else ifeq ($(LIBC),newlib)
# (user/include/newlib: newlib's <inttypes.h> completed, the 64-bit PRI macros it lacks here)
LIBC_SPECS := --specs=nano.specs -isystem user/include/newlib
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
# The board's make files a program's header and link depend on: its board.mk and user.mk, and
# the boards/common/ fragments they include.
BOARD_MKS := boards/$(BOARD)/board.mk $(wildcard boards/$(BOARD)/user.mk) \
             $(filter boards/common/%.mk,$(MAKEFILE_LIST))
# A picolibc program's linker script: picolibc's with the GNU build id kept
# (ldscripts/app-picolibc.ld), on ARM with the unwind tables too (app-exidx.ld: the
# architecture's arch.mk sets APP_PICOLIBC_LD, a board's user.mk may set it per program).
# Expanded when a program links, so that a target-specific value holds.
APP_PICOLIBC_LD ?= ldscripts/app-picolibc.ld
APP_LDSCRIPT = $(if $(filter picolibc,$(LIBC)),-T $(APP_PICOLIBC_LD))
# Every program and image carries a GNU build id (given last: it overrides a C library's
# specs that say none). The kernel writes the programs' and its own into the trace (SYSTEM
# IMAGE, docs/trace-events.md), and every host tool finds the ELF files by it and refuses
# one whose id differs (docs/analysis.md, "Symbols").
BUILD_ID_LDFLAGS := -Wl,--build-id=sha1

# make run APPS="a b" / make dtrace APPS="a b": an image of appinit (pid 1), the programs and
# the tracelogger, and one with the target's dtrace first. Named after the programs, so that
# each set of programs has its own image.
RUN_IMAGE    := run-$(subst $(eval) ,-,$(strip $(APPS)))
DTRUN_IMAGE  := dtrace-$(subst $(eval) ,-,$(strip $(APPS)))
ifneq ($(strip $(APPS)),)
$(foreach a,$(APPS),$(if $(filter $(a),$(ALL_APPS)),,$(error APPS: no program '$(a)': user/apps/ has $(filter-out tracelogger,$(ALL_APPS)) (make new-app NAME=$(a) writes one))))
IMAGES += $(RUN_IMAGE) $(if $(filter dtrace,$(BOARD_NO_IMAGES)),,$(DTRUN_IMAGE))
$(RUN_IMAGE)_APPS   := appinit $(APPS) tracelogger
$(DTRUN_IMAGE)_APPS := dtrace appinit $(APPS) tracelogger
endif

# Programs: the architecture's flags but the kernel's own (KERNEL_ONLY_CFLAGS: AArch64's and
# x86's -mgeneral-regs-only; the kernel saves every thread's FP registers, so a program computes
# and prints doubles with nothing in its app.mk).
UCFLAGS := $(filter-out $(KERNEL_ONLY_CFLAGS),$(ARCH_CFLAGS)) $(LIBC_SPECS) -std=gnu11 -O2 -g $(TWARN) \
           -ffunction-sections -fdata-sections -Iuser/include -Ikernel/include -Itrace/include \
           -Iuser/arch/$(ARCH)/include -Iboards/$(BOARD) $(BOARD_DEFS) -MMD -MP

UCFLAGS += $(ARCH_UCFLAGS) # the architecture's flags for programs alone (arch.mk)
# USDT (user/include/usdt.h, docs/usdt.md): Debian's sys/sdt.h, which systemtap-sdt-dev puts
# in the host's multiarch directory; named by its path alone, so that no other host header
# comes into a program's build.
USDT_SDT_H := $(firstword $(wildcard /usr/include/sys/sdt.h /usr/include/*/sys/sdt.h))
UCFLAGS += $(if $(USDT_SDT_H),-DUSDT_SDT_H='"$(USDT_SDT_H)"')

USER_LIB_SRCS := user/lib/kcalls.c user/lib/thread_stack.c user/lib/crt0.c user/lib/kargs.c user/lib/name.c user/lib/trace_qnx.c \
                 user/lib/trace_start.c user/lib/trace_uring.c user/lib/trace_log.c \
                 $(if $(filter board,$(LIBC)),$(BOARD_USER_LIB_SRCS),user/lib/libc_$(LIBC).c) \
                 $(if $(filter newlib,$(LIBC)),user/lib/printf_newlib.c user/lib/ufmt.c)
USER_LIB_OBJS := $(patsubst %,$(B)/obj/%.o,$(USER_LIB_SRCS))

# trace_uring.c: its inserts' sizes checked against their alignment where the architecture
# sets one (scripts/check-uring-text.sh: AArch64); one grown past it fails the build.
URING_TEXT_CHECK = scripts/check-uring-text.sh $@ user/arch/$(ARCH)/include/arch_ring_hint.h \
    $(CROSS)nm || { rm -f $@; exit 1; }
$(B)/obj/user/%.c.o: user/%.c | $(KEV_EMIT_GEN_H)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(UCFLAGS) -c $< -o $@
	$(if $(filter %/trace_uring.c.o,$@),$(Q)$(URING_TEXT_CHECK))

# The main thread's stack lies at the bottom of the program's RAM slot, below its data, so that
# an overflow leaves the slot and faults (memory the program may not touch: another program's
# slot or the kernel's; docs/hostile.md, "Stack guards"), never running into the program's
# own data. The link gives every C library's script the same symbols: __app_ram and
# __app_ram_size the slot (the program header's), __stack = __app_ram + the stack's size
# (<name>_STACK, else APP_STACK_DEFAULT: the board's BOARD_APP_STACK, sized for printf of a
# double and a few KB of locals, docs/applications.md "Thread stacks"), and the region above it,
# __ram and __ram_size, where the script puts .data, .bss and the heap up to __heap_end, the
# slot's end. picolibc's script would reserve __stack_size more at the top of that region for a
# stack there: 0, the stack is below it. A stack's size is a multiple of 16 (the AArch64 stack
# pointer's alignment, and the data's above it).
APP_STACK_DEFAULT = $(or $(BOARD_APP_STACK),0x1000)

hexsum = $(shell printf '0x%08x' $$(( $(1) )))
# pow2_at_least N, MIN: the smallest power of two >= N and >= MIN (a RAM region the MPU maps).
pow2_at_least = $(shell n=$$(( $(1) )); z=$$(( $(2) )); while [ $$z -lt $$n ]; do z=$$((z * 2)); done; printf '0x%x' $$z)
# (computed once: a board's own, or a recursive default, was a shell at every image placed)
ifndef APP_RAM_END
APP_RAM_END := $(call hexsum,$(APP_RAM_BASE) + $(APP_MAX_SLOTS) * $(APP_RAM_SLOT))
endif

# c_string WORDS: WORDS as a C string literal inside a single-quoted shell word.
c_string = "$(subst ','\'',$(subst ",\",$(subst \,\\,$(strip $(1)))))"

# A program's objects, compiled once per board (<name>_UCFLAGS_OUT: flags its sources are
# compiled without).
define APP_template
$(1)_DIR   ?= user/apps/$(1)
$(1)_SRCS  := $$(wildcard $$($(1)_DIR)/*.c) $$($(1)_EXTRA)
$(1)_OBJS  := $$(patsubst %,$(B)/apps/$(1)/obj/%.o,$$($(1)_SRCS)) $(B)/apps/$(1)/apphdr.o
$(1)_RAMSZ := $$(or $$($(1)_RAM_SLOT),$$(if $$($(1)_RAM),$$(call pow2_at_least,$$($(1)_RAM),$(APP_RAM_SLOT)),$(APP_RAM_SLOT)))

$$(patsubst %,$(B)/apps/$(1)/obj/%.o,$$($(1)_SRCS)): $(B)/apps/$(1)/obj/%.c.o: %.c | $(KEV_EMIT_GEN_H)
	@mkdir -p $$(dir $$@)
	@echo "  CC      $$<"
	$$(Q)$$(CC) $$(filter-out $$($(1)_UCFLAGS_OUT),$$(UCFLAGS)) -I$$($(1)_DIR) -c $$< -o $$@

$(B)/apps/$(1)/apphdr.o: user/lib/apphdr.c user/module.mk $$(wildcard $$($(1)_DIR)/app.mk) \
                         $(BOARD_MKS)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(CC) $$(UCFLAGS) -DAPP_NAME='"$(1)"' -DAPP_FLAGS='($$(or $$($(1)_FLAGS),0))' \
	    -DAPP_PRIO=$$(or $$($(1)_PRIO),$(APP_DEFAULT_PRIO)) \
	    -DAPP_MMIO_BASE=$$(or $$(word 1,$$($(1)_MMIO)),0) \
	    -DAPP_MMIO_SIZE=$$(or $$(word 2,$$($(1)_MMIO)),0) \
	    $$(if $$($(1)_URING),-DAPP_URING=$$($(1)_URING)u) \
	    -DAPP_ARGS='$$(call c_string,$$($(1)_ARGS))' -DAPP_ARGC=$$(words $$($(1)_ARGS)) -c $$< -o $$@

# Its arguments as they were last built: rewritten when they change (a new app.mk ARGS, or
# <name>_ARGS on make's command line), so that apphdr.o is rebuilt with them. (One directory
# for all programs, made once: a shell per program would slow every parse of the tree.)
ifneq ($$(wildcard $(APP_ARGS_DIR)/$(1)):$$(file < $(APP_ARGS_DIR)/$(1)),$(APP_ARGS_DIR)/$(1):$$(strip $$($(1)_ARGS)))
$$(file > $(APP_ARGS_DIR)/$(1),$$(strip $$($(1)_ARGS)))
endif
$(B)/apps/$(1)/apphdr.o: $(APP_ARGS_DIR)/$(1)
endef
APP_ARGS_DIR := $(B)/app-args
$(shell mkdir -p $(APP_ARGS_DIR))
$(foreach a,$(ALL_APPS),$(eval $(call APP_template,$(a))))

# image_prios IMAGE: the priorities (app.mk PRIO) of the image's programs but the tracelogger's
# and the background ones (app.mk BACKGROUND). The tracelogger is linked with the lowest as
# tl_image_low_prio (an absolute symbol): its stream is sent below them by default
# (tracelogger/main.c).
image_prios = $(foreach a,$(filter-out tracelogger,$($(1)_APPS)),$(if $($(a)_BACKGROUND),,$(or $($(a)_PRIO),$(APP_DEFAULT_PRIO))))

# APP_link IMAGE, NAME: the program linked for its place in one image, $(B)/<image>/<name>.elf.
# The runtime goes in as objects, not an archive: its sys_semihost and _exit must win over
# picolibc's, which the C library's own references would otherwise pull in.
define APP_link
# (recursive: its shell runs only when this program is linked, not at every parse)
$(1)_$(2)_FLASH = $$(call hexsum,$(APP_FLASH_BASE) + $$($(1)_$(2)_SLOT) * $(APP_FLASH_SLOT))
$(1)_$(2)_STACKSZ = $$(or $$($(2)_STACK),$$(APP_STACK_DEFAULT))
$(1)_$(2)_STACKTOP = $$(call hexsum,$$($(1)_$(2)_RAM) + $$($(1)_$(2)_STACKSZ))
# Every app.mk of the image: one program's RAM or order moves the others' places (a program
# left linked at its old place ran over the tracelogger's grown RAM: appinit's jump to 0), and
# the tracelogger reads their priorities.
$(B)/$(1)/$(2).elf: $$($(2)_OBJS) $(USER_LIB_OBJS) $(BOARD_MKS) scripts/place-apps.sh \
                   $$(foreach a,$$($(1)_APPS),$$(wildcard $$($$(a)_DIR)/app.mk))
	@mkdir -p $$(dir $$@)
	@echo "  LD      $$@ (slot $$($(1)_$(2)_SLOT), RAM $$($(1)_$(2)_RAM) +$$($(1)_$(2)_RAMSZ))"
	$$(Q)[ $$$$(( $$($(1)_$(2)_STACKSZ) % 16 )) = 0 ] || \
	  { echo "$(2): its stack, $$($(1)_$(2)_STACKSZ) bytes (STACK in its app.mk), is not a multiple of 16" >&2; exit 1; }
	$$(Q)$$(CC) $$(ULDFLAGS) $$(APP_LDSCRIPT) $(BUILD_ID_LDFLAGS) -o $$@ $$($(2)_OBJS) $(USER_LIB_OBJS) \
	    -Wl,--defsym=__flash=$$($(1)_$(2)_FLASH) \
	    -Wl,--defsym=__flash_size=$$(call hexsum,$$(or $$($(2)_FLASH_SLOTS),1) * $(APP_FLASH_SLOT)) \
	    -Wl,--defsym=__app_ram=$$($(1)_$(2)_RAM) -Wl,--defsym=__app_ram_size=$$($(1)_$(2)_RAMSZ) \
	    -Wl,--defsym=__stack=$$($(1)_$(2)_STACKTOP) -Wl,--defsym=__ram=$$($(1)_$(2)_STACKTOP) \
	    -Wl,--defsym=__ram_size=$$(call hexsum,$$($(1)_$(2)_RAMSZ) - $$($(1)_$(2)_STACKSZ)) \
	    -Wl,--defsym=__heap_end=$$(call hexsum,$$($(1)_$(2)_RAM) + $$($(1)_$(2)_RAMSZ)) \
	    -Wl,--defsym=__stack_size=0 -Wl,-Map=$$@.map \
	    $(if $(filter tracelogger,$(2)),-Wl$(comma)--defsym=tl_image_low_prio=$$$$(printf '%s\n' $$(call image_prios,$(1)) | sort -n | grep -m1 . || echo 0)) || \
	  { echo "$(2): does not fit $$(or $$($(2)_FLASH_SLOTS),1) flash slot(s) of $(APP_FLASH_SLOT) bytes or its RAM on $(BOARD) (see the error above)" >&2; exit 1; }

$(B)/$(1)/$(2).bin: $(B)/$(1)/$(2).elf
	$$(Q)$$(OBJCOPY) -O binary $$< $$@
endef

# apps.S of an image: each program's flash image at its slot offset, the boot program, and
# the image's ELF file as the build wrote it (the kernel's SYSTEM IMAGE event names it, so that
# host tools find the build directory a capture came from: kernel/ktrace_image.c).
# The image's programs are placed first (scripts/place-apps.sh): <image>_<name>_SLOT, _RAM,
# _RAMSZ, or <image>_PLACE_ERROR when they do not fit.
define IMAGE_template
$(1)_PLACE := $$(shell scripts/place-apps.sh $(1) $(APP_RAM_BASE) $(APP_RAM_END) $(APP_MAX_SLOTS) \
    $$(foreach a,$$($(1)_APPS),$$(a):$$(or $$($$(a)_SLOT),-):$$($$(a)_RAMSZ):$$(or $$($$(a)_RAM_BASE),-):$$(or $$($$(a)_FLASH_SLOTS),1)))
$(1)_PLACE_ERROR := $$(subst _, ,$$(patsubst ERROR:%,%,$$(filter ERROR:%,$$($(1)_PLACE))))
$$(foreach w,$$(filter-out ERROR:%,$$($(1)_PLACE)),$$(eval $(1)_$$(word 1,$$(subst :, ,$$(w)))_SLOT := $$(word 2,$$(subst :, ,$$(w)))) \
    $$(eval $(1)_$$(word 1,$$(subst :, ,$$(w)))_RAM := $$(word 3,$$(subst :, ,$$(w)))) \
    $$(eval $(1)_$$(word 1,$$(subst :, ,$$(w)))_RAMSZ := $$(word 4,$$(subst :, ,$$(w)))))
$$(foreach a,$$($(1)_APPS),$$(eval $$(call APP_link,$(1),$$(a))))

$(B)/$(1)/apps.S: user/module.mk $$(if $$($(1)_PLACE_ERROR),,$$(foreach a,$$($(1)_APPS),$(B)/$(1)/$$(a).bin))
	@mkdir -p $$(dir $$@)
	$$(Q)$$(if $$($(1)_PLACE_ERROR),echo '$(BOARD): image $$($(1)_PLACE_ERROR)' >&2; exit 1)
	$$(Q){ echo '    .section .apps, "a"'; \
	  printf '%s\n' $$(foreach a,$$($(1)_APPS),'$$($(1)_$$(a)_SLOT):$$(a)') | sort -n | \
	  while IFS=: read slot name; do \
	    printf '    .org %d\n    .incbin "$(B)/$(1)/%s.bin"\n' $$$$((slot * $(APP_FLASH_SLOT))) $$$$name; \
	  done; \
	  echo '    .section .rodata.boot_app_name, "a"'; \
	  echo '    .global boot_app_name'; \
	  echo 'boot_app_name:'; \
	  echo '    .asciz "$$(firstword $$($(1)_APPS))"'; \
	  echo '    .global kernel_image_path'; \
	  echo 'kernel_image_path:'; \
	  echo '    .asciz "$(abspath $(B)/$(1).elf)"'; } > $$@

$(B)/$(1)/apps.o: $(B)/$(1)/apps.S
	$$(Q)$$(CC) $$(ARCH_CFLAGS) -c $$< -o $$@

$(1)_KLIB ?= kernel
# <image>_KOBJS: kernel sources outside the kernel library that this image alone links (a test
# facility such as kernel/kcrash.c), built with the kernel's flags.
$(1)_KOBJ_FILES := $$(patsubst %,$(B)/obj/%.o,$$($(1)_KOBJS))
# Linked twice (docs/fbt.md): first with an empty fbt table, whose image fbtgen reads to write
# the image's table, then with that table, placed after all code; fbtgen --check then holds
# the second link's code and constants to the first's, byte for byte. (The first link, the
# table's source and fbtgen's listing of its decisions stay in $(B)/fbt/<image>/.) An image on a kernel
# without the D provider (<image>_KLIB other than kernel) keeps the empty table.
$(1)_FBT ?= $$(if $(KFBT),$$(filter kernel,$$($(1)_KLIB)))
$(B)/$(1).elf: $(B)/$(1)/apps.o $$($(1)_KOBJ_FILES) $(B)/$$($(1)_KLIB).a $(B)/kernel.ld \
               $(B)/fbt_empty.o $$(if $$($(1)_FBT),$(H)/fbtgen kernel/fbt.rules)
	@echo "  IMAGE   $$@ ($$($(1)_APPS))"
	@mkdir -p $(B)/fbt/$(1)
	$$(Q)$$(call image_link,$(1),$$(if $$($(1)_FBT),$(B)/fbt/$(1)/pass1.elf,$$@),$(B)/fbt_empty.o)
	$$(if $$($(1)_FBT),$$(Q)$(H)/fbtgen --rules kernel/fbt.rules -o $(B)/fbt/$(1)/fbt.S \
	    --list $(B)/fbt/$(1)/fbt.list $(B)/fbt/$(1)/pass1.elf 2>$(B)/fbt/$(1)/fbtgen.log || \
	    { cat $(B)/fbt/$(1)/fbtgen.log >&2; exit 1; })
	$$(if $$($(1)_FBT),$$(Q)$$(CC) $$(ARCH_CFLAGS) -c $(B)/fbt/$(1)/fbt.S -o $(B)/fbt/$(1)/fbt.o)
	$$(if $$($(1)_FBT),$$(Q)$$(call image_link,$(1),$$@,$(B)/fbt/$(1)/fbt.o))
	$$(if $$($(1)_FBT),$$(Q)$(H)/fbtgen --check $(B)/fbt/$(1)/pass1.elf $$@ >/dev/null || \
	    { rm -f $$@; exit 1; })
endef

# image_link IMAGE, OUT, TABLE: one link of an image's kernel and programs with an fbt table.
image_link = $(CC) $(ARCH_CFLAGS) -nostdlib -T $(B)/kernel.ld -Wl,--gc-sections $(BUILD_ID_LDFLAGS) \
    -Wl,--undefined=kev_flight -Wl,--undefined=kev_incident_map -Wl,-Map=$(2).map -o $(2) $(B)/$(1)/apps.o $($(1)_KOBJ_FILES) \
    -Wl,--whole-archive $(B)/$($(1)_KLIB).a -Wl,--no-whole-archive -lgcc $(3)

$(B)/fbt_empty.o: kernel/fbt_table.S
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ARCH_CFLAGS) -c $< -o $@
IMAGES := $(filter-out $(BOARD_NO_IMAGES),$(IMAGES))
# A board may leave single programs out of every image (BOARD_NO_APPS := <name>... in its
# board.mk, with a comment saying why): a program that spawns one then finds no such program
# (ENOENT) and says so.
$(foreach i,$(IMAGES),$(eval $(i)_APPS := $(filter-out $(BOARD_NO_APPS),$($(i)_APPS))))
$(foreach i,$(IMAGES),$(eval $(call IMAGE_template,$(i))))

IMAGES_ELF := $(patsubst %,$(B)/%.elf,$(IMAGES))

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
# Each program's header object's (apphdr.c includes board_user.h: its ring sizes).
-include $(wildcard $(B)/apps/*/apphdr.d)
