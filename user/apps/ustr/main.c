// SPDX-License-Identifier: MIT
// ustr: logs string user events of known text with QNX's trace_logf, and prints each text it
// logged on its console ("logged CODE: TEXT", formatted here with the same format and
// arguments), the truth test/qemu/test_dtrace_ustr.sh holds D's copyinstr(arg1) against,
// live and over the capture: a formatted text, a short one (under 8 bytes: still a string
// event, not two words), one longer than D's strsize in the test (cut as D cuts), and a
// two-word event (trace_logi) whose arguments stay its words.
#include <stdio.h>
#include <sys/trace.h>

#define EV_FORMATTED 200
#define EV_SHORT     201
#define EV_LONG      202
#define EV_WORDS     203

static void logged(int code, const char *text)
{
    printf("logged %d: %s\n", code, text);
}

int main(void)
{
    char text[128];
    unsigned mv = 3305;
    int rc = trace_logf(EV_FORMATTED, "channel %d of %s reads %u.%03u V", 2, "adc0", mv / 1000,
                        mv % 1000);
    snprintf(text, sizeof(text), "channel %d of %s reads %u.%03u V", 2, "adc0", mv / 1000,
             mv % 1000);
    logged(EV_FORMATTED, text);
    rc |= trace_logf(EV_SHORT, "hi");
    logged(EV_SHORT, "hi");
    const char *lng = "a long line that D cuts at its strsize: 0123456789 abcdefghij "
                      "klmnopqrst uvwxyz 0123456789 the end";
    rc |= trace_logf(EV_LONG, "%s", lng);
    logged(EV_LONG, lng);
    rc |= trace_logi(EV_WORDS, 7, 8);
    printf("logged %d: words 7 8\n", EV_WORDS);
    printf("ustr: done (%s)\n", rc ? "a log call failed" : "all logged");
    return rc ? 1 : 0;
}
