// SPDX-License-Identifier: MIT
// kevrow: asks the kernel three times to write the event table's test-only row (ThreadCtl
// KTCTL_KDEBUG_ROW, uapi/kapi.h: only the kevrowlive image's kernel has it) with values it
// chose, and prints each before it asks, the truth test/qemu/test_kevrow_live.sh holds the
// board's kevtest:::test-only and the capture's events against:
//   kevrow: pid P level L flagged F where W
// then `kevrow: done`. Exits 1 when the kernel refuses (no such row in this image).
#include <kern.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

int main(void)
{
    static const struct kdebug_row rows[] = {
        { 0x123, 0, 0x10000a5a5ull }, { 0xfff, 1, 0x2fedcba9876ull }, { 7, 1, 0x30000001ull },
    };
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct kdebug_row r = rows[i];
        printf("kevrow: pid %d level %" PRIu32 " flagged %" PRIu32 " where %" PRIu64 "\n",
               ProcSelf(), r.level, r.flagged, r.where);
        if (ThreadCtl(KTCTL_KDEBUG_ROW, &r) != 0) {
            printf("kevrow: the kernel wrote no row (errno %d)\n", errno);
            return 1;
        }
    }
    printf("kevrow: done\n");
    return 0;
}
