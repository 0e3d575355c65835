# SPDX-License-Identifier: MIT
# emitgen: the kernel's side of the event table, generated from its rows (tools/emitgen/emitgen.c):
# each row probe's firing from its values, the packers of the rows hand-written sites write and,
# where a site needs nothing but its values (or one derived probes' rule), its emit helper, in
# $(KEV_EMIT_GEN_H) (the Makefile names it), which kernel/include/kernel/kev_emit.h includes;
# `emitgen -l` lists them by name for docs/event-table.md (scripts/event-table-doc.sh). Every
# object built from C that may include it waits for it (an order-only prerequisite of each
# compile rule, explicit ones too), and so does every make started for
# another board or build (test/qemu/module.mk), so one make writes it. It is written again
# whenever the generator or a row changes (emitgen's objects' dependencies), so it is never
# stale and never in git. $(HT)/evrow/emitgen, built with the test-only row, writes that
# row's helper alone for the test image that fires it.
HOST_TOOLS += $(H)/emitgen
EMITGEN_SRCS := tools/emitgen/emitgen.c trace/d/row_probes.c trace/d/probes.c trace/d/dfbt.c
$(H)/emitgen: $(call kevhost_objs,$(EMITGEN_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^
# emitgen_header HEADER,GENERATOR,FLAGS: HEADER written by `GENERATOR FLAGS -o HEADER`. The
# generator leaves an unchanged header as it was (its objects stay built), so its time says
# nothing of the run: a stamp beside it does, or every make would run the generator again.
define emitgen_header
$(1): $(1).stamp
	$$(Q)[ -f $$@ ] || $(2) $(3) -o $$@
$(1).stamp: $(2)
	@mkdir -p $$(dir $$@)
	@echo "  GEN     $(1)"
	$$(Q)$(2) $(3) -o $(1) && touch $$@
endef
$(eval $(call emitgen_header,$(KEV_EMIT_GEN_H),$(H)/emitgen,))
