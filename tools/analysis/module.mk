# SPDX-License-Identifier: MIT
# The analysis model every host tool over a .kev links (tools/analysis/): the time-ordered
# event source, the thread model, ids in Linux terms, message matching, the analyses (CPU,
# states, kernel calls, interrupts, messages, waits, losses, user events, function calls) and their JSON form,
# the stack samples. kevstat prints it, kevreport draws it, the converters map it, kevsql
# serves it as tables: each answer is computed here once.
AN := tools/analysis
# The model and the decoder it reads through.
AN_MODEL  := $(AN)/kx.c $(AN)/kx_pass.c $(AN)/kx_fields.c $(AN)/kx_ids.c $(AN)/kx_sort.c tools/common/tool_file.c tools/common/tool_map.c tools/common/json_out.c \
             trace/kev_userreg.c trace/kev_decode.c trace/kev_fields.c trace/kev_text.c trace/kev_file.c \
             trace/kev_events.c trace/kev_kercall.c trace/kev_panic.c trace/kev_stack.c trace/kev_image.c
AN_MSG    := $(AN)/kx_msg.c
# The analyses (with the message matching and the wait analysis they use).
AN_STATS  := $(AN)/kx_stats.c $(AN)/kx_stats_json.c $(AN_MSG) $(AN)/kx_wait.c $(AN)/kx_prio.c \
             $(AN)/kx_wait_groups.c $(AN)/kx_wait_json.c \
             $(AN)/kx_load.c $(AN)/kx_funcs.c $(AN)/kx_task.c $(AN)/kx_timer.c $(AN)/kx_task_json.c $(AN)/kx_timing.c \
             $(AN)/kx_chain.c $(AN)/kx_chain_text.c $(AN)/kx_chain_json.c $(AN)/kx_emul.c
# The stack samples, their frames named with libdwfl from the ELF files the capture ran, found by
# build id (tool_syms.c; link with -ldw -lelf).
AN_STACKS := $(AN)/kx_stacks.c $(SYMS_SRCS)

# Unit tests of the model and the analyses (cmocka, ASan + UBSan).
$(HT)/test_kx: $(call host_test_objs,test/tools/test_kx.c $(AN_STATS) $(filter-out $(AN)/kx_sort.c $(AN)/kx_pass.c \
                                     trace/kev_panic.c trace/kev_stack.c,$(AN_MODEL)))
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka
HOST_TESTS += $(HT)/test_kx

# The task-instance rule over hand-built event sequences (kx_task.c through the analyses).
$(HT)/test_kx_task: $(call host_test_objs,test/tools/test_kx_task.c $(AN_STATS) $(filter-out $(AN)/kx_sort.c $(AN)/kx_pass.c \
                                          trace/kev_panic.c trace/kev_stack.c,$(AN_MODEL)))
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka
HOST_TESTS += $(HT)/test_kx_task

# The wait chains over hand-built event sequences (kx_chain.c through the analyses).
$(HT)/test_kx_chain: $(call host_test_objs,test/tools/test_kx_chain.c $(AN_STATS) $(filter-out $(AN)/kx_sort.c $(AN)/kx_pass.c \
                                           trace/kev_panic.c trace/kev_stack.c,$(AN_MODEL)))
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka
HOST_TESTS += $(HT)/test_kx_chain

# The wait analysis's priority inversions over hand-built event sequences (every middle
# thread with its own share of the time lost).
HOST_TESTS += $(HT)/test_kev_wait
$(HT)/test_kev_wait: $(call host_test_objs,test/unit/test_kev_wait.c $(AN)/kx_wait.c $(AN)/kx_fields.c $(AN)/kx_prio.c $(AN)/kx_wait_groups.c \
                         trace/kev_decode.c trace/kev_fields.c trace/kev_text.c trace/kev_file.c trace/kev_events.c trace/kev_kercall.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lcmocka $(HOST_TLDFLAGS)

# libFuzzer target for the model as kevsql's tables walk it (time order, every record); seeds:
# small kevgen traces and a two-CPU kevscen4 one.
FUZZ_BINS += $(FZ)/fuzz_kev_model
$(FZ)/fuzz_kev_model: test/fuzz/fuzz_kev_model.c $(AN_STATS) $(AN_MODEL) $(H)/kevgen $(HT)/kevscen4
	@mkdir -p $(dir $@) $(dir $@)seeds-fuzz_kev_model
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)
	$(Q)$(H)/kevgen -n 60 -o $(dir $@)seeds-fuzz_kev_model/le.kev >/dev/null
	$(Q)$(H)/kevgen -b -e -n 200 -o $(dir $@)seeds-fuzz_kev_model/be.kev >/dev/null
	$(Q)$(H)/kevgen -k 1 -d 0 -n 1100 -o $(dir $@)seeds-fuzz_kev_model/lost.kev >/dev/null
	$(Q)$(HT)/kevscen4 -r 2 smp $(dir $@)seeds-fuzz_kev_model/smp.kev >/dev/null

# The one model pass (kx_pass.c) over a board's capture: each event to the tool before and
# after the model (or the analyses) took it, once, in time order; a stop stops it.
$(HT)/test_kx_pass: $(call host_test_objs,test/tools/test_kx_pass.c $(AN_STATS) $(AN_MODEL))
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lcmocka
HOST_TESTS += $(HT)/test_kx_pass
