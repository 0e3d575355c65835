# SPDX-License-Identifier: MIT
# kevsql: a .kev trace as SQL tables (docs/sql.md).
#   kevsql.so   the SQLite extension (Debian's sqlite3 shell: .load; Python: load_extension)
#   kevsql      the command: a query over one trace, or over many in parallel (--merge); an
#               interactive shell; --check for CI
# The extension's code is compiled position-independent (obj-pic/, tools/module.mk's rule) once,
# for the extension and for the command, which registers the same extension with
# sqlite3_auto_extension; both link the host library (the model they serve) as the tools do.
KS := tools/kevsql
KS_SRCS := $(KS)/ks_ext.c $(KS)/ks_vtab.c $(KS)/ks_trace.c $(KS)/ks_tables.c $(KS)/ks_model.c $(KS)/ks_decl.c $(KS)/ks_cols.c $(KS)/ks_stdlib.c \
           $(KS)/ks_syms.c $(SYMS_SRCS) \
           $(AN_MODEL) $(AN_STATS)
# names of code addresses: the shared build-id lookup (tools/include/kevhost/tool_syms.h) and libdw
KS_LIBS := -ldw -lelf
$(call pic_objs,$(KS)/ks_stdlib.c): $(KS)/stdlib.sql

HOST_TOOLS += $(H)/kevsql.so $(H)/kevsql
$(H)/kevsql.so: $(call kevhost_pic_objs,$(KS_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -shared -o $@ $^ $(KS_LIBS)

$(H)/kevsql: $(call kevhost_pic_objs,$(KS)/kevsql.c $(KS)/kevsql_fleet.c $(KS_SRCS))
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lsqlite3 $(KS_LIBS)

# --scheduler: the Dask client, beside the command (kevsql runs it with Debian's python3)
HOST_TOOLS += $(H)/kevsql_dask.py
$(H)/kevsql_dask.py: $(KS)/kevsql_dask.py
	@mkdir -p $(dir $@)
	$(Q)cp $< $@ && chmod +x $@

# Tests: the extension and the command against the independent reader, kevscen's scripts and
# kevstat, the sqlite3 shell and Python as consumers, damaged input, many traces; the damaged
# input again through the ASan + UBSan build; a real Dask cluster on loopback.
TEST_DEPS_HOST += $(H)/kevsql $(H)/kevsql.so $(H)/kevsql_dask.py $(H)/kevstat $(H)/kevscen \
                  $(H)/kevgen $(HT)/kevscen4 $(HT)/kevsql
SCRIPT_TESTS_HOST += kevsql|400|test/tools/test_kevsql.sh
SCRIPT_TESTS_HOST += kevsql-asan|300|test/tools/test_kevsql.sh|$(HT)|build/host-test/sql|damage
SCRIPT_TESTS_HOST += kevsql-dask|240|test/tools/test_kevsql_dask.sh
# hostile SQL (virtual-table arguments, load_extension, recursion, LIMIT/OFFSET): optimised and
# under ASan + UBSan, with the sqlite3 shell and Python as consumers
SCRIPT_TESTS_HOST += kevsql-hostile|300|test/tools/test_kevsql_hostile.sh
SCRIPT_TESTS_HOST += kevsql-hostile-asan|600|test/tools/test_kevsql_hostile.sh|$(HT)
# rows kept for the SQL fuzzer (ks_keep_rows) against the walk's, every table, under ASan + UBSan
$(HT)/test_kevsql_keep: $(call host_test_objs,test/tools/test_kevsql_keep.c $(KS_SRCS))
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lsqlite3 $(KS_LIBS)
TEST_DEPS_HOST += $(HT)/test_kevsql_keep
SCRIPT_TESTS_HOST += kevsql-keep|180|test/tools/test_kevsql_keep.sh|$(HT)|$(H)
$(HT)/kevsql: $(call host_test_objs,$(KS)/kevsql.c $(KS)/kevsql_fleet.c $(KS_SRCS))
	@echo "  TESTLD  $@"
	$(Q)$(HOST_CC) $(HOST_TLDFLAGS) -o $@ $^ -lsqlite3 $(KS_LIBS)
$(call host_test_objs,$(KS)/ks_stdlib.c): $(KS)/stdlib.sql

# Perfetto's queries on a real capture of a 1-CPU and a 4-CPU board, against traceprinter's events
# (the sqlcap image: user/apps/stackfault/app.mk)
SQLCAP_BOARDS := mps2-an385 qemu-virt-a53
SCRIPT_TESTS += $(foreach b,$(SQLCAP_BOARDS),qemu-kevsql-perfetto/$(b)|400|BOARD=$(b)|test/tools/test_kevsql_perfetto.sh|build/$(b)|$(H))
TEST_DEPS    += $(if $(filter $(BOARD),$(SQLCAP_BOARDS)),$(B)/sqlcap.elf) \
                $(foreach b,$(filter-out $(BOARD),$(SQLCAP_BOARDS)),matrix-images-$(b)) \
                $(H)/kevsql $(H)/kevstat $(H)/traceprinter $(H)/dcompile

# libFuzzer target for the extension: every table and view over any bytes (test/fuzz/); seeds:
# the model's target's (small kevgen traces, a two-CPU kevscen4 one).
FUZZ_BINS += $(FZ)/fuzz_kevsql
$(FZ)/fuzz_kevsql: test/fuzz/fuzz_kevsql.c $(KS_SRCS) $(KS)/stdlib.sql $(FZ)/fuzz_kev_model
	@mkdir -p $(dir $@)seeds-fuzz_kevsql
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^) -lsqlite3 $(KS_LIBS)
	$(Q)cp $(dir $@)seeds-fuzz_kev_model/*.kev $(dir $@)seeds-fuzz_kevsql/

# libFuzzer target for the extension's SQL surface: any SQL over a small open trace (test/fuzz/);
# seeds: the queries of fuzz_kevsql_sql.seeds, one file each.
FUZZ_BINS += $(FZ)/fuzz_kevsql_sql
$(FZ)/fuzz_kevsql_sql: test/fuzz/fuzz_kevsql_sql.c test/fuzz/fuzz_kevsql_sql.seeds $(KS_SRCS) \
                            $(KS)/stdlib.sql $(H)/kevgen
	@mkdir -p $(dir $@)seeds-fuzz_kevsql_sql
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^) -lsqlite3 $(KS_LIBS)
	$(Q)$(H)/kevgen -n 100 -o $(dir $@)fuzz_kevsql_sql.kev > /dev/null
	$(Q)i=0; while IFS= read -r q; do i=$$((i + 1)); printf '%s\n' "$$q" \
	    > $(dir $@)seeds-fuzz_kevsql_sql/q$$i.sql; done < test/fuzz/fuzz_kevsql_sql.seeds
# make test's short run of it (make fuzz runs it for FUZZ_SECONDS or FUZZ_RUNS)
TEST_DEPS_HOST += $(FZ)/fuzz_kevsql_sql
SCRIPT_TESTS_HOST += fuzz/kevsql-sql|300|test/fuzz/test_fuzz_short.sh|$(FZ)/fuzz_kevsql_sql|3000

# Figures (make bench): kevsql beside traceprinter and kevstat, the loaded design, many traces
# in processes and on a Dask cluster (docs/PERFORMANCE.md).
BENCH_DEPS += $(H)/kevsql $(H)/kevsql.so $(H)/kevsql_dask.py $(H)/kevgen $(H)/traceprinter $(H)/kevstat
BENCHES += tools/kevsql/bench_kevsql.sh
