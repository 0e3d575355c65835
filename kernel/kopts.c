// SPDX-License-Identifier: MIT
// The kernel's options from the boot command line (kernel/kopts.h): the host's line through
// semihosting where the board has a host, else the boot loader's (board_boot_cmdline). Its
// parts are separated by the word ";;" and start with the name of whoever reads them, as the
// programs' are (user/lib/kargs.c); the kernel reads the one named "kernel". An option it
// does not know is said on the console and ignored. A line longer than the buffer below
// gives no options (said too).
#include <kernel/kopts.h>
#include <kernel/arch.h>
#include <kernel/board.h>

bool kopt_idle_poll;

#define SH_GET_CMDLINE 0x15u
#define KOPTS_LINE_MAX 1024u

static bool word_is(const char *w, size_t n, const char *s)
{
    size_t k = 0;
    while (k < n && s[k] && w[k] == s[k])
        k++;
    return k == n && !s[k];
}

static void option(const char *w, size_t n)
{
    if (word_is(w, n, "idle=poll")) {
        kopt_idle_poll = true;
        kprintf("kernel: idle=poll: the idle threads spin\n");
        return;
    }
    char name[32];
    size_t k = n < sizeof(name) - 1 ? n : sizeof(name) - 1;
    kmemcpy(name, w, k);
    name[k] = '\0';
    kprintf("kernel: unknown option '%s' ignored\n", name);
}

// The options of the part named "kernel" in s.
static void parse(const char *s)
{
    bool part_start = true, ours = false;
    while (*s) {
        while (*s == ' ')
            s++;
        const char *w = s;
        while (*s && *s != ' ')
            s++;
        size_t n = (size_t)(s - w);
        if (!n)
            break;
        if (word_is(w, n, ";;")) {
            part_start = true;
            ours = false;
            continue;
        }
        if (part_start)
            ours = word_is(w, n, "kernel");
        else if (ours)
            option(w, n);
        part_start = false;
    }
}

void kopts_init(void)
{
    if (!board_has_semihosting()) {
        const char *s = board_boot_cmdline();
        if (s)
            parse(s);
        return;
    }
    char line[KOPTS_LINE_MAX];      // (the boot stack, at boot: nothing else is on it)
    uint32_t blk[2] = { (uint32_t)(uintptr_t)line, KOPTS_LINE_MAX - 1u };
    if (arch_semihost(SH_GET_CMDLINE, (uint32_t)(uintptr_t)blk) != 0 || blk[1] >= KOPTS_LINE_MAX) {
        kprintf("kernel: the boot command line is longer than %u bytes: no kernel options read\n",
                KOPTS_LINE_MAX - 1u);
        return;
    }
    line[blk[1]] = '\0';
    parse(line);
}
