// SPDX-License-Identifier: MIT
// The test-only event (test_event_row.c): its number and its layout, written once as the
// table's layouts are (trace/kev_rows.h); the kernel test image's emit site
// (test_event_row_kernel.c) calls the helper the build generates from the row (tools/emitgen).
#ifndef TEST_EVENT_ROW_H
#define TEST_EVENT_ROW_H

#include <trace/kev_events.h>
#include <trace/kev_rows.h>

#define KEV_SYS_TEST_ONLY 0x3f0u    // SYSTEM: a number no kernel event uses

#define KEV_F_TEST_ONLY(F, x) \
    F(x, who, WHO, WORD, 0, 0, 0, 0, NULL, "the thread") \
    F(x, level, U32, WORD, 1, 0, 12, 0, NULL, "a level, 12 bits") \
    F(x, flagged, FLAG, WORD, 1, 12, 1, 0, NULL, "a flag above it") \
    F(x, where, ADDR, HI_LO, 2, 0, 0, 0, NULL, "a 64-bit address") \
    F(x, label, STRING, STRING, 4, 0, 0, 0, NULL, "a text")

// The row, which a test build adds to the table (kev_events_add) before main
// (test_event_row_add.c): the host tools' and $(HT)/evrow/emitgen's.
extern const struct kev_event_desc kev_test_rows[1];

#endif
