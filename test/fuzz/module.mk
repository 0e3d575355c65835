# SPDX-License-Identifier: MIT
# `make fuzz` itself: a target with a planted UB (ub_canary.c, not a FUZZ_BINS entry) must
# stop at UBSan's first report and fail the make (docs/hostile.md, "Fuzzers").
$(FZ)/ub_canary: test/fuzz/ub_canary.c
	@mkdir -p $(dir $@) $(dir $@)seeds-ub_canary
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $<
	$(Q)printf 'U\001' > $(dir $@)seeds-ub_canary/overflow
	$(Q)printf 'harmless' > $(dir $@)seeds-ub_canary/harmless

TEST_DEPS_HOST += $(FZ)/ub_canary
SCRIPT_TESTS_HOST += fuzz/ub-stops|120|test/fuzz/test_fuzz_ub.sh
