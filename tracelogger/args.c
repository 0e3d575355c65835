// SPDX-License-Identifier: MIT
// tracelogger's command line: QNX's options, plus -u (UART stream) and -x name=value.
// On QEMU the command line comes from the debugger (semihosting SYS_GET_CMDLINE, set with
// -semihosting-config arg=...), or on a board without semihosting from the boot loader's
// command line, which the kernel answers SYS_GET_CMDLINE with (x86-pc: QEMU's -append); on a
// board running free, from the image's built-in default. -k defaults to the board's
// BOARD_TRACE_BUFS (the buffers its pool has room for).
#include "tracelogger.h"
#include <kern.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace/kev.h>
#include <trace/kev_file.h>

#include <board_user.h>     // BOARD_TRACE_BUFS: the default -k


#define STR_(x) #x
#define STR(x) STR_(x)

static void usage(void)
{
    printf("usage: tracelogger [-n num] [-s sec] [-c] [-r] [-w] [-k num] [-f file] [-F class]\n"
           "                   [-d1] [-A name=value] [-p hz] [-u] [-v] [-x bufpolicy=P] [-x delay=ms]\n"
           "  -n num    buffers to capture (default 32; 0 = until stopped)\n"
           "  -s sec    capture for sec seconds\n"
           "  -c        continuous: until stopped (same as -n 0)\n"
           "  -r        ring mode: the kernel wraps without notifying; buffers are saved at stop\n"
           "  -w        wide mode (more data per event)\n"
           "  -k num    kernel buffers of 16 KB (default " STR(BOARD_TRACE_BUFS) " on this board)\n"
           "  -f file   output file on the host (default tracebuffer.kev); -: none, the stream\n"
           "            (-u, -x rtt) is the storage, as on a board without host files\n"
           "  -F class  turn a class off: 1 kernel calls, 2 interrupts, 3 process, 4 thread,\n"
           "            5 vthread (3-5 are one class here), 6 comm, 7 system; with -d1 too (the\n"
           "            kernel keeps it off whatever the program starting the capture asks)\n"
           "  -d1       passive: another program configures, starts and stops tracing\n"
           "  -A n=v    extra header attribute TRACE_N::v (the name in capitals)\n"
           "  -u        also send the file as a framed stream on UART 1 (tools/kevcapture)\n"
           "  -p hz     sample the running thread's stack hz times a second on each CPU (1-5000,\n"
           "            from the profile timer; 1-1000 where the board has none) as SYSTEM\n"
           "            STACK events, for profiles over the capture (dtrace -i, docs/profiling.md);\n"
           "            off by default\n"
           "  -v        verbose\n"
           "  -x bufpolicy=switch|overwrite|ring|fill   what to do when no buffer is free\n"
           "  -x delay=ms   wait ms after each buffer written (a slow storage, for tests)\n"
           "  -x cpu=N      run on CPU N alone (a logger on another CPU than the writers)\n"
           "  -x rtt[=block|skip]  also send the stream through an RTT up-channel (a debug\n"
           "                probe reads it); skip: drop (and count) what a probe does not take\n"
           "  -x startwait=sec  -d1: give up (exit 1) when tracing is not started within sec\n"
           "                s (default 10)\n"
           "  -x flush=ms   every ms, save the buffers holding events even below the mark, or\n"
           "                send the stream a heartbeat (default " STR(TL_FLUSH_MS) " with -u or -x rtt, else\n"
           "                0 = off; not with -r)\n"
           "  -x sendprio=N|own  send the stream (-u, -x rtt) at priority N (default: below every\n"
           "                program of this image, said at the start), own: at the logger's\n"
           "  -x wire=compact|raw|check  the stream's kernel buffers in the compact encoding\n"
           "                (default: about a third of the bytes, expanded by the host), as\n"
           "                their bytes, or both (check: the bytes in REF frames, for tests)\n"
           "  -x probe[=keep]  a reader outside the board (a debug probe, QEMU's gdbstub:\n"
           "                kevprobe) takes the buffers from the kernel's memory; the logger\n"
           "                only sleeps. keep: it gives none back, the logger saves them all at\n"
           "                the end to -f as well (tests). No file, stream or flush otherwise\n"
           "  -x probewait=sec  -x probe: wait sec s at the end for the reader (default 10)\n"
           "  -x incident=name  an incident record an earlier boot left (docs/incidents.md) is\n"
           "                written to name.kev and name.core first (default incident)\n");
}

static int class_of_qnx(int n)
{
    static const int map[8] = { -1, KEV_C_KER_CALL, KEV_C_INT, KEV_C_PR_TH, KEV_C_PR_TH,
                                KEV_C_PR_TH, KEV_C_COMM, KEV_C_SYSTEM };
    return n >= 1 && n <= 7 ? map[n] : -1;
}

static int number(const char *s, unsigned *out, const char *what);

// -A name=value: the header item TRACE_NAME::value, checked here by the header's own rules
// (kev_hdr_item_refused) so that a bad one stops the logger before it opens its file.
static int parse_attr(struct tl_opts *o, const char *s)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || o->nattr == TL_MAX_ATTRS) {
        printf("tracelogger: -A wants name=value (at most %d)\n", TL_MAX_ATTRS);
        return -1;
    }
    size_t n = (size_t)(eq - s);
    if (n > TL_ATTR_KEY_MAX) {
        printf("tracelogger: -A %.*s: a name has at most %d characters\n", (int)n, s,
               TL_ATTR_KEY_MAX);
        return -1;
    }
    char *key = o->attr_key[o->nattr];
    for (size_t k = 0; k < n; k++)
        key[k] = (char)(s[k] >= 'a' && s[k] <= 'z' ? s[k] - 'a' + 'A' : s[k]);
    key[n] = '\0';
    const char *why = kev_hdr_item_refused(key, eq + 1);
    if (why) {
        printf("tracelogger: -A %s: TRACE_%s refused: %s (docs/kev-format.md)\n", s, key, why);
        return -1;
    }
    o->attr_value[o->nattr++] = eq + 1;
    return 0;
}

// pick: *index set to word's among the n words of list, 0; or -1 after saying it is an unknown
// `what` (the words it may be listed).
static int pick(const char *word, const char *const *list, int n, const char *what, int *index)
{
    for (int i = 0; i < n; i++)
        if (strcmp(word, list[i]) == 0) {
            *index = i;
            return 0;
        }
    printf("tracelogger: unknown %s '%s' (", what, word);
    for (int i = 0; i < n; i++)
        printf("%s%s", i ? ", " : "", list[i]);
    printf(")\n");
    return -1;
}

static int parse_x(struct tl_opts *o, const char *s)
{
    static const char *const policies[] = { "switch", "overwrite", "ring", "fill" };
    if (strncmp(s, "bufpolicy=", 10) == 0)
        return pick(s + 10, policies, 4, "buffer policy", &o->policy);
    if (strncmp(s, "startwait=", 10) == 0)
        return number(s + 10, &o->start_wait, "startwait");
    if (strncmp(s, "cpu=", 4) == 0) {
        unsigned c;
        if (number(s + 4, &c, "cpu") || c > 31u)
            return -1;
        o->cpu = (int)c;
        return 0;
    }
    if (strcmp(s, "rtt") == 0 || strcmp(s, "rtt=block") == 0 || strcmp(s, "rtt=skip") == 0) {
        o->rtt = strcmp(s, "rtt=skip") == 0 ? 2 : 1;
        return 0;
    }
    if (strncmp(s, "flush=", 6) == 0) {
        o->flush_set = true;
        return number(s + 6, &o->flush_ms, "flush");
    }
    if (strncmp(s, "sendprio=", 9) == 0) {
        o->send_prio_set = true;
        if (strcmp(s + 9, "own") == 0) {
            o->send_prio = 0;
            return 0;
        }
        if (number(s + 9, &o->send_prio, "sendprio") || o->send_prio < KPRIO_MIN ||
            o->send_prio > KPRIO_MAX) {
            printf("tracelogger: sendprio must be %d to %d, or own\n", KPRIO_MIN, KPRIO_MAX);
            return -1;
        }
        return 0;
    }
    if (strncmp(s, "wire=", 5) == 0) {
        static const char *const wires[] = { "compact", "raw", "check" };
        return pick(s + 5, wires, 3, "wire", &o->wire);
    }
    if (strcmp(s, "probe") == 0 || strcmp(s, "probe=keep") == 0) {
        o->probe = s[5] ? 2 : 1;
        return 0;
    }
    if (strncmp(s, "probewait=", 10) == 0)
        return number(s + 10, &o->probe_wait, "probewait");
    if (strncmp(s, "incident=", 9) == 0 && s[9]) {
        o->incident = s + 9;
        return 0;
    }
    if (strncmp(s, "delay=", 6) == 0) {
        o->delay_ms = (unsigned)strtoul(s + 6, NULL, 10);
        return 0;
    }
    printf("tracelogger: unknown -x option '%s'\n", s);
    return -1;
}

static int number(const char *s, unsigned *out, const char *what)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || v > 1000000) {
        printf("tracelogger: %s must be a number, not '%s'\n", what, s);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

// Options that take a value (the rest of the word, or the next word).
static const char with_value[] = "nskfFdAxp";

// Whether options that each parsed well contradict each other (said on stdout).
static bool opts_conflict(const struct tl_opts *o)
{
    // Ring mode saves buffers only at the stop: there is nothing to flush while it runs.
    if ((o->ring || o->policy == 2) && o->flush_set && o->flush_ms) {
        printf("tracelogger: -x flush needs buffers saved while tracing runs, not -r\n");
        return true;
    }
    if (o->probe && (o->uart || o->rtt || o->flush_set)) {
        printf("tracelogger: -x probe: the reader takes the buffers itself: no -u, -x rtt or "
               "-x flush\n");
        return true;
    }
    if (o->ring && o->policy >= 0 && o->policy != 2) {
        printf("tracelogger: -r conflicts with -x bufpolicy\n");
        return true;
    }
    return false;
}

// One option, c, with its value optarg (NULL when it takes none; a: the word, for the error)
// into o: 0, 1 for -h (the caller says the usage), -1 when it is bad (said on stdout).
static int take_opt(struct tl_opts *o, char c, const char *optarg, const char *a)
{
    int cls;
    switch (c) {
    case 'n': return number(optarg, &o->iterations, "-n");
    case 's': return number(optarg, &o->seconds, "-s");
    case 'c': o->iterations = 0; return 0;
    case 'p':
        if (number(optarg, &o->stack_hz, "-p") || o->stack_hz < 1 || o->stack_hz > 5000) {
            printf("tracelogger: -p takes 1 to 5000 samples a second\n");
            return -1;
        }
        return 0;
    case 'r': o->ring = true; return 0;
    case 'w': o->wide = true; return 0;
    case 'k':
        if (number(optarg, &o->kbufs, "-k") || o->kbufs == 0 || o->kbufs > 64) {
            printf("tracelogger: -k takes 1 to 64 buffers\n");
            return -1;
        }
        return 0;
    case 'f': o->file = optarg; return 0;
    case 'F': {
        unsigned n;
        if (number(optarg, &n, "-F") || (cls = class_of_qnx((int)n)) < 0) {
            printf("tracelogger: -F takes a class from 1 to 7\n");
            return -1;
        }
        o->classes_off |= 1u << cls;
        return 0;
    }
    case 'd':
        if (strcmp(optarg, "1") != 0) {
            printf("tracelogger: only -d1 (passive mode) exists\n");
            return -1;
        }
        o->passive = true;
        return 0;
    case 'A': return parse_attr(o, optarg) ? -1 : 0;
    case 'u': o->uart = true; return 0;
    case 'v': o->verbose = true; return 0;
    case 'x': return parse_x(o, optarg) ? -1 : 0;
    case 'h': return 1;
    default:
        printf("tracelogger: unknown option '%s'\n", a);
        return -1;
    }
}

int tl_parse_args(int argc, char **argv, struct tl_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->iterations = 32;
    o->kbufs = BOARD_TRACE_BUFS;
    o->policy = -1;
    o->start_wait = 10;
    o->probe_wait = 10;
    o->cpu = -1;
    o->file = "tracebuffer.kev";
    o->incident = "incident";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0) {
            usage();
            return 1;
        }
        if (a[0] != '-' || !a[1]) {
            printf("tracelogger: unexpected argument '%s'\n", a);
            goto bad;
        }
        char c = a[1];
        const char *optarg = NULL;
        if (strchr(with_value, c)) {
            optarg = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
            if (!optarg) {
                printf("tracelogger: -%c needs a value\n", c);
                goto bad;
            }
        } else if (a[2]) {
            printf("tracelogger: unknown option '%s'\n", a);
            goto bad;
        }
        int took = take_opt(o, c, optarg, a);
        if (took > 0) {
            usage();
            return 1;
        }
        if (took < 0)
            goto bad;
    }
    if (opts_conflict(o))
        goto bad;
    return 0;
bad:
    usage();
    return 2;
}

// The tracelogger's part of the boot command line (kargs: "tracelogger -d1 ..." among the
// other programs' parts), or when none names it, the image's built-in fallback. -1 when the
// boot command line does not fit buf: the caller stops with an error rather than run with the
// fallback's options, which are not what the user asked for.
int tl_get_args(char *buf, size_t size, char **argv, int max, const char *fallback)
{
    int n = kargs("tracelogger", buf, size, argv, max);
    if (n != 0)
        return n;
    strncpy(buf, fallback, size - 1);
    buf[size - 1] = '\0';
    n = kargs_split(buf, "tracelogger", argv, max - 1);
    if (n > 0)
        return n;
    // A fallback given as bare options.
    static char self[] = "tracelogger";
    argv[0] = self;
    int m = 1;
    for (char *p = strtok(buf, " "); p && m < max - 1; p = strtok(NULL, " "))
        argv[m++] = p;
    argv[m] = NULL;
    return m;
}
