# SPDX-License-Identifier: MIT
# kevweb: a running target's trace as a live web page (the live reader, the analysis model, a
# small HTTP server with server-sent events; the page embedded by web_assets.c).
KW := tools/kevweb
HOST_TOOLS += $(H)/kevweb
$(call host_objs,$(KW)/web_assets.c): $(KW)/live.html $(KW)/live.js $(KW)/live.css tools/kevconv/report.css \
    $(wildcard tools/viewer/*.js)
$(H)/kevweb: $(call kevhost_objs,$(KW)/kevweb.c $(KW)/web_server.c $(KW)/web_feed.c $(KW)/web_assets.c)
	@echo "  LINK    $@"
	$(Q)$(HOST_CC) -o $@ $^ -lm -lz
# In Chromium while a file grows: updates as it is written, each thread's CPU time at the end
# kevstat's, kevreport's page of it, a page that never reads stalling nothing; on two CPUs
# the same CPU times (about 25 s).
SCRIPT_TESTS_HOST += kevweb|120|test/tools/test_kevweb.sh
TEST_DEPS_HOST    += $(H)/kevweb $(H)/kevgen $(H)/kevstat $(H)/kevreport $(HT)/kevscen4
# Its figures: the events a second the page keeps up with, the server's memory over an hour of
# trace time and the page's (docs/web-view.md; about 3 minutes).
BENCHES      += scripts/bench-kevweb.sh|$(H)
BENCH_DEPS   += $(H)/kevweb $(H)/kevscen $(H)/traceprinter $(H)/kevreport
# Chromium over pages a hostile trace must not blank: names as markup (kevscen -M) in
# kevreport's page, kevweb's live page and /report; a damaged or missing header said on the page.
SCRIPT_TESTS_HOST += hostile-page|180|test/tools/test_hostile_page.sh
# A flood on loopback: 2,000 slow requests and 64 held streams at once, a viewer beside them
# served its page and stream within 2 s every time (about 25 s).
SCRIPT_TESTS_HOST += kevweb-flood|90|test/tools/test_kevweb_flood.sh
# Chromium over kevscen basic's 1,000 messages a second at the default zoom: the CPU rows'
# legend and colours, thread rows readable under the messages, one unit per time column.
SCRIPT_TESTS_HOST += kevweb-view|120|test/tools/test_kevweb_view.sh
