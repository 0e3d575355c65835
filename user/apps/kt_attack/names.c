// SPDX-License-Identifier: MIT
// Attack 26: the channels' names (NameCtl, kernel/kname.c; name_attach, user/lib/name.c). The
// runner holds the name "kt_hostile" on its channel `chid`. Each hostile call must be refused
// with its errno, and nothing the attacker names may outlive it: it ends holding a flood of
// names, which the runner then finds gone (kt_hostile/main.c, attack_names). Returns 0 when
// every call was refused as it should be; else the bit of the first that was not.
#include <kern.h>
#include <sys/dispatch.h>
#include <errno.h>
#include <stdio.h>
#include "names.h"

// What a call returned against what it must: -1 with errno `want`.
static int refused(int r, int want, const char *what)
{
    if (r == -1 && errno == want)
        return 0;
    printf("# names: %s: got %d errno %d, want errno %d\n", what, r, r < 0 ? errno : 0, want);
    return 1;
}

int names_attack(int runner_chid)
{
    int bad = 0;
    int mine = ChannelCreate(0);
    // Another program's name, on a channel of its own: EEXIST.
    bad |= refused(NameCtl(KNAMECTL_ATTACH, mine, "kt_hostile"), EEXIST, "the runner's name") << 0;
    bad |= (name_attach(NULL, "kt_hostile", 0) != NULL) << 1;
    // The runner's channel: neither its name taken off nor a name put on (not ours: ESRCH).
    bad |= refused(NameCtl(KNAMECTL_DETACH, runner_chid, "kt_hostile"), ESRCH, "detach the runner's") << 2;
    bad |= refused(NameCtl(KNAMECTL_ATTACH, runner_chid, "stolen"), ESRCH, "name the runner's channel") << 3;
    // Names too long, empty, with a '/' or a control character, at no address.
    bad |= refused(NameCtl(KNAMECTL_ATTACH, mine, "sixteen_letters_"), ENAMETOOLONG, "16 bytes") << 4;
    bad |= refused(NameCtl(KNAMECTL_OPEN, 0, "a_name_far_longer_than_any_kept"), ENAMETOOLONG, "open long") << 5;
    bad |= refused(NameCtl(KNAMECTL_ATTACH, mine, ""), EINVAL, "empty") << 6;
    bad |= refused(NameCtl(KNAMECTL_ATTACH, mine, "dev/x"), EINVAL, "a slash") << 7;
    bad |= refused(NameCtl(KNAMECTL_ATTACH, mine, "bell\a"), EINVAL, "a control character") << 8;
    bad |= refused(NameCtl(KNAMECTL_ATTACH, mine, NULL), EFAULT, "no address") << 9;
    bad |= refused(NameCtl(99, mine, "x"), EINVAL, "an unknown command") << 10;
    bad |= refused(NameCtl(KNAMECTL_OPEN, 7, "x"), EINVAL, "an open of an unknown mode") << 17;
    // A waiting open of a name nobody attaches ends with its timeout, leaving nothing behind.
    TimerTimeout(1000000ull);
    bad |= refused(name_open("never_attached", NAME_FLAG_WAIT), ETIMEDOUT, "a waiting open") << 18;
    // The longest name works, once per channel (EBUSY for a second).
    bad |= (NameCtl(KNAMECTL_ATTACH, mine, "fifteen_letters") != 0) << 11;
    bad |= refused(NameCtl(KNAMECTL_ATTACH, mine, "another"), EBUSY, "a second name") << 12;
    // The runner's name opens (a name is no secret: anyone may send to it).
    int coid = name_open("kt_hostile", 0);
    bad |= (coid < 0) << 13;
    name_close(coid);
    // A flood: a channel and a name each, until the names' quota (KLIM_NAMES) or the channels'
    // stops it, with EAGAIN.
    int n = 1;          // "fifteen_letters" is one
    char name[KNAME_CHAN_MAX];
    for (int i = 0; i < 64; i++) {
        int ch = ChannelCreate(0);
        if (ch < 0) {
            bad |= (errno != EAGAIN) << 14;
            break;
        }
        snprintf(name, sizeof(name), NAMES_FLOOD_FMT, i);
        if (NameCtl(KNAMECTL_ATTACH, ch, name) != 0) {
            bad |= (errno != EAGAIN) << 15;
            break;
        }
        n++;
    }
    bad |= (n > NAMES_FLOOD_MAX) << 16;
    printf("# names: %d names held at the quota's end\n", n);
    return bad;     // exits holding them: its end must take them all
}
