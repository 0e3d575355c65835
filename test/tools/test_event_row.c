// SPDX-License-Identifier: MIT
// A test-only event: one row for the event table (test_event_row.h), added in test builds of
// kevscen, the consumers, dtrace and the generator ($(HT)/evrow/, test_event_row_add.c), so
// that test_event_table.sh sees an event no tool's code knows named with its fields by each of
// them, and test_kevrow_live.sh sees its D probe fire on the board. SYSTEM 0x3f0, a number no
// kernel event uses; its emit sites are kevscen's "events" scenario, which writes every row of
// the table, and the kernel test image's ThreadCtl(KTCTL_KDEBUG_ROW), through the helper
// $(HT)/evrow/emitgen writes from this row. Its D probe, one no list of d/dprobes.h has, has
// the id of its name (d/dprobes.h dprobe_row_hash) in dtrace, dcompile and the kernel alike,
// with no code naming this row or its probe. Freestanding.
#include "test_event_row.h"

static const struct kev_field_desc test_fields[] = { KEV_F_TEST_ONLY(KEV_FIELD_DESC, 0) };

// Its D column: a probe of its own, so that dtrace -i over the test's capture fires it only for
// this row, with these arguments.
static const struct kev_dprobe test_dprobes[] = {
    { "kevtest:::test-only", "who who.pid level flagged where", NULL, 0 },
    { NULL, NULL, NULL, 0 },
};

const struct kev_event_desc kev_test_rows[1] = {
    { KEV_C_SYSTEM, KEV_SYS_TEST_ONLY, KEV_SYS_TEST_ONLY, "TEST_ONLY", "written only by a test",
      test_fields, sizeof(test_fields) / sizeof(test_fields[0]), 0, 0, 0, 0,
      "kevtest:::test-only (who, its pid, level, flagged, where)", KEV_D_EMIT, test_dprobes },
};
