// SPDX-License-Identifier: MIT
// A test-only event: one row added to the event table (through kev_events_add, before main)
// in test builds of kevscen and the consumers ($(HT)/evrow/), so that test_event_table.sh sees
// an event no tool's code knows named with its fields by each of them. SYSTEM 0x3f0, a
// number no kernel event uses; its emit site is kevscen's "events" scenario, which writes
// every row of the table. Its D probe, one no list of d/dprobes.h has, gets its id from the row
// (tools/dtrace/row_probes.c) in test builds of dtrace, which list it and fire it over a
// capture (-i) with no code naming this row or its probe.
#include <trace/kev_events.h>

static const struct kev_field_desc test_fields[] = {
    { "who", KEV_K_WHO, KEV_L_WORD, 0, 0, 0, 0, 0, "the thread" },
    { "level", KEV_K_U32, KEV_L_WORD, 1, 0, 12, 0, 0, "a level, 12 bits" },
    { "flagged", KEV_K_FLAG, KEV_L_WORD, 1, 12, 1, 0, 0, "a flag above it" },
    { "where", KEV_K_ADDR, KEV_L_HI_LO, 2, 0, 0, 0, 0, "a 64-bit address" },
    { "label", KEV_K_STRING, KEV_L_STRING, 4, 0, 0, 0, 0, "a text" },
};

// Its D column: a probe of its own, so that dtrace -i over the test's capture fires it only for
// this row, with these arguments.
static const struct kev_dprobe test_dprobes[] = {
    { "kevtest:::test-only", "who who.pid level flagged where", NULL, 0 },
    { NULL, NULL, NULL, 0 },
};

static const struct kev_event_desc test_rows[] = {
    { KEV_C_SYSTEM, 0x3f0, 0x3f0, "TEST_ONLY", "written only by a test", test_fields,
      sizeof(test_fields) / sizeof(test_fields[0]), 0, 0, 0, 0,
      "kevtest:::test-only (who, its pid, level, flagged, where)", KEV_D_OWN,
      test_dprobes },
};

__attribute__((constructor)) static void test_event_row_add(void)
{
    kev_events_add(test_rows, 1);
}
