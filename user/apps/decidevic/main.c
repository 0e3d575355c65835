// SPDX-License-Identifier: MIT
// decidevic: blocks on a channel of its own, which nobody sends to, until decide
// (user/apps/decide) kills it: the victim of its ProcKill calls.
#include <kern.h>

int main(void)
{
    int chid = ChannelCreate(0);
    char buf[4];
    MsgReceive(chid, buf, sizeof(buf), NULL);
    return 1;
}
