// SPDX-License-Identifier: MIT
// The test-only row (test_event_row.h) added to the host tools' table before main, in their
// test builds ($(HT)/evrow/) and the unit tests that link it.
#include "test_event_row.h"

__attribute__((constructor)) static void test_event_row_add(void)
{
    kev_events_add(kev_test_rows, 1);
}
