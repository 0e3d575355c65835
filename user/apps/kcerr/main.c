// SPDX-License-Identifier: MIT
// kcerr: kernel calls that fail, each with the errno this kernel documents for it (a channel,
// connection, semaphore or thread that does not exist), and one that succeeds between them.
// For each failure it prints "failed CALL ERRNO" with the errno its own library returned: the
// truth test/qemu/test_dtrace_errno.sh holds D's errno at kercall:::return against.
#include <errno.h>
#include <kern.h>
#include <stdio.h>

static int failures;

static void failed(const char *call, int rc)
{
    if (rc != -1) {
        printf("kcerr: %s did not fail (%d)\n", call, rc);
        return;
    }
    printf("failed %s %d\n", call, errno);
    failures++;
}

int main(void)
{
    for (int k = 0; k < 3; k++) {
        errno = 0;
        failed("ChannelDestroy", ChannelDestroy(999));
    }
    for (int k = 0; k < 2; k++) {
        errno = 0;
        failed("ConnectDetach", ConnectDetach(999));
    }
    for (int k = 0; k < 4; k++) {
        errno = 0;
        failed("SemPost", SemPost(999));
    }
    errno = 0;
    failed("ThreadJoin", ThreadJoin(99, NULL));
    int chid = ChannelCreate(0);    // a success: errno 0 at its return
    if (chid >= 0)
        ChannelDestroy(chid);
    printf("kcerr: done, %d failures\n", failures);
    return failures == 10 && chid >= 0 ? 0 : 1;
}
