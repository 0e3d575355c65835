// SPDX-License-Identifier: MIT
// traceprinter: prints a .kev trace as text, QNX style, one line per event:
//   t:0x00a3f1c0 CPU:00 THREAD  :THRUNNING      pid:3 tid:1 (server/main)
// then a summary (events, buffers, lost events, missing buffers). Decoding is the shared
// library trace/kev_decode.c; this file only formats. Exit status: 0 when the whole file
// decoded, 1 on a damaged or unreadable file (after printing what could be decoded), 2 on
// bad usage.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace/kev_decode.h>
#include <trace/kev_panic.h>
#include <trace/kev_file.h>
#include <trace/kev_stack.h>
#include <trace/kev_image.h>
#include <trace/kev_text.h>
#include <kevhost/tool_map.h>
#include <kevhost/tool_opts.h>
#include <kevhost/tool_syms.h>
#include <kevhost/syms_usdt.h>
#include <kevhost/kx.h>
#include "qnx_kercall.h"
#include "text_line.h"
#include <trace/kev_events.h>

#define DEFAULT_FORMAT "t:%T CPU:%C %k %a"
#define WRAP_WORDS 6u // without -n, payloads longer than this continue on extra lines

struct opts {
    const char *fmt;
    int custom_fmt;     // -p given
    int one_line;
    const char *file;
    int merge;          // -m: several CPUs in time order
};

static const struct tool_opt opts[] = {
    { 'm', 'm', NULL, NULL, "merge several CPUs' events in time order (the other tools' order)", NULL },
    { 'n', 'n', NULL, NULL,
      "keep every event on one line (long payloads otherwise continue on\n"
      "indented lines)", NULL },
    { 'p', 'p', NULL, "FORMAT",
      "columns to print (default \"" DEFAULT_FORMAT "\"):\n"
      "%c cycles (64-bit)   %T low 32 cycle bits (hex)  %t microseconds\n"
      "%C CPU   %e event number   %Z class   %z event name\n"
      "%k class and event as QNX's traceprinter writes them\n"
      "%a arguments   %% a percent sign", NULL },
    { .also = syms_opts },
    { 0 },
};
static const struct tool_cmd cmd = {
    "traceprinter", "[-n] [-m] [-p FORMAT] [--symbols DIR]... FILE.kev",
    "Prints the events of a .kev trace, one line each, then a summary of losses.\n"
    "Events come in file order, as QNX's traceprinter prints them: buffer after\n"
    "buffer, so several CPUs' events come a buffer at a time. A USDT event is\n"
    "named provider:probe from its program's ELF file, found by build id.\n",
    opts, "Exit status: 0 ok, 1 damaged or unreadable file, 2 bad usage.\n",
};

// ---- names ----------------------------------------------------------------------------------

static const char *class_label(const struct kev_event *e)
{
    switch (e->cls) {
    case KEV_C_CONTROL: return "CONTROL";
    case KEV_C_KER_CALL: return kev_kcall_part(e) == KEV_KCALL_EXIT ? "KER_EXIT" : "KER_CALL";
    case KEV_C_INT: return "INT";
    case KEV_C_PR_TH: return e->ev >= KEV_PR_CREATE ? "PROCESS" : "THREAD";
    case KEV_C_SYSTEM: return "SYSTEM";
    case KEV_C_USER: return "USREVENT";
    case KEV_C_COMM: return "COMM";
    default: return "UNKNOWN";
    }
}

static void event_label(const struct kev_event *e, char *buf, size_t n)
{
    const char *s = NULL;
    switch (e->cls) {
    case KEV_C_CONTROL: s = kev_control_name(e->ev); break;
    case KEV_C_INT: s = kev_int_name(e->ev); break;
    case KEV_C_SYSTEM: s = kev_system_name(e->ev); break;
    case KEV_C_COMM: s = kev_comm_name(e->ev); break;
    case KEV_C_PR_TH:
        if (e->ev >= KEV_PR_CREATE) {
            s = kev_process_event_name(e->ev);
        } else if (kev_thread_state_name(e->ev)) {
            snprintf(buf, n, "TH%s", kev_thread_state_name(e->ev));
            return;
        }
        break;
    case KEV_C_KER_CALL: {
        enum kev_kcall_part part = kev_kcall_part(e);
        if (part == KEV_KCALL_NONE) // a number past the calls' parts: EV_<n>
            break;
        unsigned call = kev_kcall_no(e);
        const char *kc = kev_kcall_name(call);
        const char *qnx = qnx_kercall_name(e);
        const char *suffix = part == KEV_KCALL_INTR ? "(intr)" : "";
        // QNX's name for QNX's calls; ours for the calls we put on numbers QNX leaves spare.
        if (qnx && !(kc && strstr(qnx, "SPARE")))
            snprintf(buf, n, "%s/%02u%s", qnx, call, suffix);
        else if (kc)
            snprintf(buf, n, "%s/%02u%s", kc, call, suffix);
        else
            snprintf(buf, n, "KC_%u%s", call, suffix);
        return;
    }
    case KEV_C_USER: snprintf(buf, n, "EVENT:%u", e->ev); return;
    default: break;
    }
    if (s)
        snprintf(buf, n, "%s", s);
    else
        snprintf(buf, n, "EV_%u", e->ev);
}

// " (proc/thread)" when known, else "".
static void who(const struct kev_reader *r, uint32_t pid, uint32_t tid, char *buf, size_t n)
{
    const char *p = kev_proc_name(r, pid);
    const char *t = tid ? kev_thread_name(r, pid, tid) : NULL;
    if (p && t)
        snprintf(buf, n, " (%s/%s)", p, t);
    else if (p)
        snprintf(buf, n, " (%s)", p);
    else
        buf[0] = 0;
}

// ---- arguments --------------------------------------------------------------------------------

static int printable_string(const struct kev_reader *r, const struct kev_event *e,
                            unsigned first, char *buf, size_t n)
{
    kev_event_string(r, e, first, buf, n);
    size_t len = strlen(buf);
    return len > 0 && strchr(buf, '?') == NULL && (len + 4) / 4 >= e->nw - first;
}

// The text QNX's traceprinter shows for a user event of more than 2 words.
static void qnx_user_string(const struct kev_reader *r, const struct kev_event *e, char *buf,
                            size_t n)
{
    uint8_t b[8u * KEV_MAX_COMBINE_SLOTS];
    size_t nb = kev_event_bytes(r, e, 0, b, sizeof(b)), k = 0;
    if (nb)
        b[nb - 1] = 0;
    for (; k < nb && b[k]; k++)
        if (b[k] != '\n' && (b[k] < 0x20 || b[k] >= 0x7f))
            break;
    if (k < nb && b[k]) // an unprintable byte
        k = 0;
    if (k >= n)
        k = n - 1;
    memcpy(buf, b, k);
    buf[k] = 0;
}

static void raw_words(struct text_line *l, const struct kev_event *e, unsigned from, int one_line)
{
    for (unsigned i = from; i < e->nw; i++) {
        if (!one_line && i > from && (i - from) % WRAP_WORDS == 0)
            text_add(l, "\n%*s", 24, "");
        text_add(l, "%s0x%08x", i > from ? " " : "", e->w[i]);
    }
}

// An event QNX prints no format for, by the event table (trace/kev_events.h): "name:value"
// per field, hex for addresses, ids and threads, names of enums in parentheses, strings
// quoted; the raw words when no row describes the event.
static void table_fields(const struct kev_reader *r, const struct kev_event *e, struct text_line *l,
                         int one_line)
{
    static struct kev_fields fs;
    kev_fields_decode(r, e, &fs);
    if (!fs.desc) {
        raw_words(l, e, 0, one_line);
        return;
    }
    for (unsigned i = 0; i < fs.n; i++) {
        const struct kev_field *f = &fs.f[i];
        text_add(l, "%s%s:", i ? " " : "", f->name);
        if (f->kind == KEV_K_STRING) {
            char safe[512];
            kev_text_safe(safe, sizeof(safe), (const uint8_t *)f->str, strlen(f->str));
            text_add(l, "\"%s\"", safe);
        } else if (KEV_K_IS_ARRAY(f->kind)) {
            for (unsigned k = 0; k < f->n; k++)
                text_add(l, "%s0x%llx", k ? " " : "", (unsigned long long)f->arr[k]);
        } else if (f->kind == KEV_K_HEX || f->kind == KEV_K_ADDR || f->kind == KEV_K_WHO) {
            text_add(l, f->v >> 32 ? "0x%llx" : "0x%08llx", (unsigned long long)f->v);
        } else if (f->kind == KEV_K_S32) {
            text_add(l, "%lld", (long long)(int64_t)f->v);
        } else {
            const char *nm = kev_field_text(f);
            text_add(l, "%llu", (unsigned long long)f->v);
            if (nm)
                text_add(l, " (%s)", nm);
        }
    }
}

// Our ownership and priority events (docs/trace-events.md; QNX has none, its printer skips
// them), from the event table's fields: SYNC_WAIT object:X owner:pid/tid, PRIO_CHANGE pid/tid
// new <- old (cause). 1 if done.
static int sync_event(const struct kev_reader *r, const struct kev_event *e, struct text_line *l)
{
    static struct kev_fields fs;
    char tmp[80];
    uint64_t who_v, object, prio, old, cause;
    if (e->ev != KEV_SYS_SYNC_WAIT && e->ev != KEV_SYS_PRIO_CHANGE)
        return 0;
    kev_fields_decode(r, e, &fs);
    if (e->ev == KEV_SYS_SYNC_WAIT) {
        if (!kev_field_num(kev_field_get(&fs, "object"), &object) || !kev_field_num(kev_field_get(&fs, "owner"), &who_v))
            return 0;
        who(r, kev_who_pid(who_v), kev_who_tid(who_v), tmp, sizeof(tmp));
        text_add(l, "object:0x%x owner:", (unsigned)object);
        if (who_v)
            text_add(l, "%u/%u%s", kev_who_pid(who_v), kev_who_tid(who_v), tmp);
        else
            text_add(l, "none");
        return 1;
    }
    if (!kev_field_num(kev_field_get(&fs, "who"), &who_v) || !kev_field_num(kev_field_get(&fs, "new_prio"), &prio) ||
        !kev_field_num(kev_field_get(&fs, "old_prio"), &old) || !kev_field_num(kev_field_get(&fs, "cause"), &cause))
        return 0;
    const char *cn = kev_prio_cause_name((unsigned)cause);
    who(r, kev_who_pid(who_v), kev_who_tid(who_v), tmp, sizeof(tmp));
    text_add(l, "pid:%u tid:%u priority:%u old:%u cause:%s%s", kev_who_pid(who_v), kev_who_tid(who_v),
        (unsigned)prio, (unsigned)old, cn ? cn : "?", tmp);
    return 1;
}

// A USDT firing (ours; docs/usdt.md): its probe named from its program's note, the arguments
// as the program passed them (signed where the note says so). 1 if done; 0 for a site no file
// names (its fields then, as the table names them).
static int usdt_event(const struct kev_reader *r, const struct kev_event *e, struct text_line *l)
{
    static struct kev_fields fs;
    struct syms_usdt_firing f;
    char text[512];
    if (e->ev != KEV_SYS_USDT)
        return 0;
    kev_fields_decode(r, e, &fs);
    if (syms_usdt_firing(&fs, &f) != 0 || !f.p)
        return 0;
    syms_usdt_text(&f, text, sizeof(text));
    text_add(l, "%s", text);
    return 1;
}

// Our stack, fault and image events (docs/trace-events.md "Stacks and faults", "Images and
// build ids"; QNX's printer skips them): the shared decoder's line, with the thread's name.
// 1 if done.
static int stack_event(const struct kev_reader *r, const struct kev_event *e, struct text_line *l)
{
    char text[1200], tmp[80];
    struct kev_stack s;
    struct kev_fault f;
    struct kev_image im;
    if (e->ev == KEV_SYS_IMAGE && kev_image_decode(r, e, &im) == 0) {
        kev_image_text(&im, text, sizeof(text));
        text_add(l, "%s", text);
        return 1;
    }
    if (e->ev == KEV_SYS_STACK && kev_stack_decode(e->w, e->nw, &s) == 0) {
        kev_stack_text(&s, text, sizeof(text));
        who(r, s.pid, s.tid, tmp, sizeof(tmp));
    } else if (e->ev == KEV_SYS_FAULT && kev_fault_decode(e->w, e->nw, &f) == 0) {
        kev_fault_text(&f, text, sizeof(text));
        who(r, f.pid, f.tid, tmp, sizeof(tmp));
    } else {
        return 0;   // not ours, or malformed: the raw words
    }
    text_add(l, "%s%s", text, tmp);
    return 1;
}

// Field name of e where its row puts it (trace/kev_events.c), 0 when the event lacks it: the
// events QNX prints, read by the table and printed under QNX's labels.
static uint64_t fv(const struct kev_event *e, const char *name)
{
    uint64_t v = 0;
    kev_field_read(e, kev_field_desc_get(e->cls, e->ev, name), &v);
    return v;
}

// A word QNX prints whole where the table names two fields in it (a pulse's channel and code),
// or none (INT_ENTR's and INT_EXIT's second word, QNX's IP and inkernel, where this kernel
// writes the thread it interrupted), or an event no row describes: word k of the payload as
// QNX's layout of the event has it, 0 past the payload.
static uint32_t qnx_word(const struct kev_event *e, unsigned k)
{
    return k < e->nw ? e->w[k] : 0u;
}

// CONTROL: QNX's words for the clock, buffer and loss events.
static void control_args(const struct kev_event *e, int one_line, struct text_line *l)
{
    if (e->ev == KEV_CTL_TIME) // (its 64-bit cycles in QNX's two halves)
        text_add(l, "msb:0x%08x lsb(offset):0x%08x", (uint32_t)(fv(e, "cycles") >> 32),
                 (uint32_t)fv(e, "cycles"));
    else if (e->ev == KEV_CTL_BUFFER) // QNX's own wording
        text_add(l, "sequence = %u, num_events = %u", (unsigned)fv(e, "seq"), (unsigned)fv(e, "nevents"));
    else if (e->ev == KEV_CTL_BUFFER_END)
        text_add(l, "seq:%u events:%u", (unsigned)fv(e, "seq"), (unsigned)fv(e, "nevents"));
    else if (e->ev == KEV_CTL_DROPPED)
        text_add(l, "lost:%u total:%u", (unsigned)fv(e, "lost"), (unsigned)fv(e, "lost_total"));
    else
        raw_words(l, e, 0, one_line);
}

// INT: "0x00000008 (8) IP:..." (%k printed "INT_ENTR:"); QNX's words: ENTR [irq, IP], EXIT
// [irq, inkernel], HANDLER_ENTR [pid, irq, IP, area], HANDLER_EXIT [irq, sigevent...].
static void interrupt_args(const struct kev_event *e, int one_line, struct text_line *l)
{
    text_add(l, "0x%08x (%d) ", kev_int_irq(e), (int)kev_int_irq(e));
    if (e->ev == KEV_INT_ENTER)
        text_add(l, "IP:0x%08x", qnx_word(e, 1));
    else if (e->ev == KEV_INT_EXIT)
        text_add(l, "inkernel:0x%08x", qnx_word(e, 1));
    else if (e->ev == KEV_INT_HANDLER_ENTER)
        text_add(l, "PID:%d IP:0x%08x AREA:0x%08x", (int)kev_int_handler_pid(e),
                 (uint32_t)fv(e, "handler"), (uint32_t)fv(e, "area"));
    else if (e->ev == KEV_INT_HANDLER_EXIT)
        text_add(l, "SIGEVENT:INTR EVENT");
    else
        raw_words(l, e, 0, one_line);
}

// KER_CALL/KER_EXIT: QNX's layout of the call (qnx_kercall.c), our errno name after it; a call
// QNX has no layout for: its return and errno, then the raw words.
static void kcall_args(const struct kev_reader *r, const struct kev_event *e, int one_line,
                       struct text_line *l)
{
    char name[1024];
    enum kev_kcall_part part = kev_kcall_part(e);
    if ((part == KEV_KCALL_ENTRY || part == KEV_KCALL_EXIT) &&
        qnx_kercall_args(e, r->kr_big, name, sizeof(name)) == 0) {
        int32_t ret;
        uint32_t err;
        text_add(l, "%s", name[0] == ' ' ? name + 1 : name);
        if (kev_kcall_exit(e, &ret, &err) && err) // ours, after QNX's fields
            text_add(l, " (%s)", kev_errno_name(err) ? kev_errno_name(err) : "errno");
        return;
    }
    if (part == KEV_KCALL_EXIT) {
        int32_t ret;
        uint32_t err;
        kev_kcall_exit(e, &ret, &err);
        text_add(l, "ret:%d", ret);
        if (err)
            text_add(l, " errno:%u (%s)", err, kev_errno_name(err) ? kev_errno_name(err) : "?");
        if (e->nw > 2)
            text_add(l, " "), raw_words(l, e, 2, one_line);
    } else {
        raw_words(l, e, 0, one_line);
    }
}

// THREAD and PROCESS: thread state, create, destroy [pid, tid, prio, policy]; a thread's name;
// a process's [ppid, pid, name].
static void proc_thread_args(const struct kev_reader *r, const struct kev_event *e,
                             struct text_line *l)
{
    char name[1024], tmp[64];
    uint32_t pid = (uint32_t)fv(e, "pid"), tid = (uint32_t)fv(e, "tid");
    if (e->ev < KEV_PR_CREATE) { // thread state, create, destroy: [pid, tid, prio, policy]
        uint64_t prio, policy;
        who(r, pid, tid, tmp, sizeof(tmp));
        text_add(l, "pid:%d tid:%d", (int)pid, (int)tid);
        if (kev_field_read(e, kev_field_desc_get(e->cls, e->ev, "prio"), &prio) &&
            kev_field_read(e, kev_field_desc_get(e->cls, e->ev, "policy"), &policy))
            text_add(l, " priority:%d policy:%d", (int)prio, (int)policy);
        text_add(l, "%s", tmp);
    } else if (e->ev == KEV_PR_THREAD_NAME) {
        kev_event_name(r, e, 2, name, sizeof(name));
        text_add(l, "pid:%u tid:%u name:%s", pid, tid, name);
    } else { // [ppid, pid, name]
        text_add(l, "ppid:%u pid:%u", (unsigned)fv(e, "ppid"), pid);
        if (e->ev == KEV_PR_CREATE_NAME || e->ev == KEV_PR_DESTROY_NAME) {
            kev_event_name(r, e, 2, name, sizeof(name));
            text_add(l, " name:%s", name);
        }
    }
}

// COMM: QNX's two words, each the table's field (the process name is ours).
static void comm_args(const struct kev_reader *r, const struct kev_event *e, struct text_line *l)
{
    static const char *const field[KEV_COMM_NEVENTS][2] = {
        [KEV_COMM_SND_MESSAGE] = { "rcvid", "pid" }, [KEV_COMM_SND_PULSE] = { "coid", NULL },
        [KEV_COMM_REC_MESSAGE] = { "rcvid", "who" }, [KEV_COMM_REC_PULSE] = { NULL, "who" },
        [KEV_COMM_SND_PULSE_EXE] = { "scoid", "pid" }, [KEV_COMM_SND_PULSE_DIS] = { "scoid", "pid" },
        [KEV_COMM_SND_PULSE_DEA] = { "scoid", "pid" }, [KEV_COMM_SND_PULSE_UN] = { "scoid", "pid" },
        [KEV_COMM_SIGNAL] = { "signo", "code" }, [KEV_COMM_REPLY_MESSAGE] = { "rcvid", "status" },
        [KEV_COMM_MSG_ERROR] = { "rcvid", "errno" },
    };
    char tmp[64];
    uint32_t v[2];
    for (unsigned k = 0; k < 2; k++) { // (a pulse's channel and code: one word to QNX)
        const char *f = e->ev < KEV_COMM_NEVENTS ? field[e->ev][k] : NULL;
        const struct kev_field_desc *fd = f ? kev_field_desc_get(e->cls, e->ev, f) : NULL;
        v[k] = fd ? (uint32_t)fv(e, f) : qnx_word(e, k);
    }
    uint32_t v0 = v[0], v1 = v[1];
    who(r, v1, 0, tmp, sizeof(tmp));
    if (e->ev == KEV_COMM_SND_MESSAGE || e->ev == KEV_COMM_REC_MESSAGE)
        text_add(l, "rcvid:0x%08x pid:%d%s", v0, (int)v1, tmp);
    else if (e->ev == KEV_COMM_REPLY_MESSAGE || e->ev == KEV_COMM_MSG_ERROR)
        text_add(l, "tid:%d pid:%d%s", (int)v0, (int)v1, tmp);
    else if (e->ev == KEV_COMM_SIGNAL)
        text_add(l, "si_signo:%d si_code:%d", (int)v0, (int)v1);
    else
        text_add(l, "scoid:0x%08x pid:%d%s", v0, (int)v1, tmp);
}

// USREVENT: "USREVENT:EVENT:7, d0:0x... d1:0x..." (a one-slot event's data words), else the
// string QNX prints.
static void user_args(const struct kev_reader *r, const struct kev_event *e, int one_line,
                      struct text_line *l)
{
    char name[1024];
    if (e->nslots == 1) {
        l->n -= l->n && l->p[l->n - 1] == ' ';
        text_add(l, ", d0:0x%08x d1:0x%08x", kx_user_word(e, 0), kx_user_word(e, 1));
        return;
    }
    // QNX prints any longer user event as a string: its bytes up to the first NUL (the
    // last byte taken as NUL), or "" when one of them is unprintable. A binary buffer
    // (INSERTCUSEREVENT) thus prints STR:"" there; we append its words.
    qnx_user_string(r, e, name, sizeof(name));
    text_add(l, "STR:\"%s\"", name);
    if (!printable_string(r, e, 0, name, sizeof(name))) {
        text_add(l, " (words: ");
        raw_words(l, e, 0, one_line);
        text_add(l, ")");
    }
}

// SYSTEM: our own events (ownership and priority, stacks and faults, USDT, the kernel's panic),
// else the table's fields.
static void system_args(const struct kev_reader *r, const struct kev_event *e, int one_line,
                        struct text_line *l)
{
    char name[1024];
    struct kev_panic p;
    if (sync_event(r, e, l) || stack_event(r, e, l) || usdt_event(r, e, l))
        return;
    if (kev_panic_decode(r, e, &p)) {   // ours: the kernel's last words
        kev_panic_format(&p, name, sizeof(name));
        text_add(l, "%s", name);
        return;
    }
    table_fields(r, e, l, one_line);
}

// The %a column: the event's arguments as its class prints them.
static void arguments(const struct kev_reader *r, const struct kev_event *e, int one_line,
                      struct text_line *l)
{
    switch (e->cls) {
    case KEV_C_CONTROL: control_args(e, one_line, l); return;
    case KEV_C_INT: interrupt_args(e, one_line, l); return;
    case KEV_C_KER_CALL: kcall_args(r, e, one_line, l); return;
    case KEV_C_PR_TH: proc_thread_args(r, e, l); return;
    case KEV_C_COMM: comm_args(r, e, l); return;
    case KEV_C_USER: user_args(r, e, one_line, l); return;
    case KEV_C_SYSTEM: system_args(r, e, one_line, l); return;
    default: table_fields(r, e, l, one_line); return;
    }
}

// ---- the per-event callback --------------------------------------------------------------------

struct printer {
    struct opts *o;
    char out[8192];
};

static int print_event(void *user, struct kev_reader *r, const struct kev_event *e)
{
    struct printer *pr = user;
    struct text_line l = { pr->out, 0, sizeof(pr->out) };
    char label[64];
    for (const char *f = pr->o->fmt; *f; f++) {
        if (*f != '%') {
            text_add(&l, "%c", *f);
            continue;
        }
        switch (*++f) {
        case 'c': text_add(&l, "%llu", (unsigned long long)e->t64); break;
        case 'T': text_add(&l, "0x%08x", e->t32); break;
        case 't':
            if (r->kr_cycles_per_sec)
                text_add(&l, "%.3f", (double)e->t64 * 1e6 / (double)r->kr_cycles_per_sec);
            else
                text_add(&l, "?");
            break;
        case 'C': text_add(&l, "%02u", e->cpu); break;
        case 'e': text_add(&l, "%u", e->ev); break;
        case 'Z': text_add(&l, "%-8s", class_label(e)); break;
        case 'z':
            event_label(e, label, sizeof(label));
            text_add(&l, "%-16s", label);
            break;
        case 'k': // QNX: "KER_CALL:MSG_SENDV/11", "THREAD  :THRUNNING", "INT_ENTR:0x00000008 (8)"
            event_label(e, label, sizeof(label));
            if (e->cls == KEV_C_INT) { // the interrupt number follows with no space (%a)
                text_add(&l, "%s:", label);
                if (f[1] == ' ' && f[2] == '%' && f[3] == 'a')
                    f++;
            } else if (e->cls == KEV_C_CONTROL && e->ev == KEV_CTL_BUFFER) {
                text_add(&l, "CONTROL: BUFFER"); // QNX prints this one event so
            } else {
                text_add(&l, "%-8s:%-16s", class_label(e), label);
            }
            break;
        case 'a': arguments(r, e, pr->o->one_line, &l); break;
        case '%': text_add(&l, "%%"); break;
        default: break; // rejected when parsing options
        }
    }
    while (l.n > 0 && l.p[l.n - 1] == ' ')
        l.n--;
    l.p[l.n] = 0;
    puts(l.p);
    return 0;
}

static int check_format(const char *fmt)
{
    for (const char *f = fmt; *f; f++) {
        if (*f != '%')
            continue;
        if (!*++f || !strchr("cTtCeZzka%", *f))
            return -1;
    }
    return 0;
}

// ---- main --------------------------------------------------------------------------------------

static void print_header(const struct kev_reader *r)
{
    printf("TRACEPRINTER version %u.%02u\n", KEV_VER_MAJOR, KEV_VER_MINOR);
    printf(" -- HEADER FILE INFORMATION --\n");
    // Keys and values are the file's bytes: printed as names are (kev_text.h), so that a
    // capture cannot drive the terminal through its header either (at most 4 bytes out per
    // byte in: whole).
    for (unsigned i = 0; i < r->kr_nattr; i++) {
        const struct kev_attr *a = &r->kr_attr[i];
        size_t kn = 4u * a->ka_klen + 1u, vn = 4u * a->ka_vlen + 1u;
        char *key = malloc(kn), *val = malloc(vn);
        if (!key || !val) {
            fprintf(stderr, "traceprinter: out of memory\n");
            exit(1);
        }
        kev_text_safe(key, kn, (const uint8_t *)a->ka_key, a->ka_klen);
        kev_text_safe(val, vn, (const uint8_t *)a->ka_val, a->ka_vlen);
        printf("  TRACE_%s:: %s\n", key, val);
        free(key);
        free(val);
    }
    if (r->kr_board[0])
        printf("  board: %s, %u Hz, %u CPU(s)\n", r->kr_board, r->kr_board_hz,
               r->kr_board_ncpu);
    printf(" -- KERNEL EVENTS --\n");
}

static void print_summary(const struct kev_reader *r, int rc)
{
    printf(" -- SUMMARY --\n");
    printf("events: %llu in %llu buffers\n", (unsigned long long)r->kr_events,
           (unsigned long long)r->kr_buffers);
    if (rc) { // what follows the damage is unknown: no loss figure would be true
        printf("damaged file: %s; events after that point are unknown\n", kev_error(r));
        return;
    }
    uint64_t stream = 0;
    for (unsigned c = 0; c < KEV_MAX_CPUS; c++)
        stream += r->kr_cpu[c].cs_lost_stream;
    uint64_t lost = kev_lost_total(r);
    if (lost || r->kr_seq_missing)
        printf("lost events: %llu (%llu reported in the trace, %llu after the last buffer), "
               "missing buffers: %llu\n",
               (unsigned long long)lost, (unsigned long long)stream,
               (unsigned long long)(lost - stream), (unsigned long long)r->kr_seq_missing);
    else
        printf("lost events: 0\n");
    if (kev_rejected_total(r)) // a process's bad ring records: its doing, not a loss
        printf("rejected records: %llu (bad user-event ring records of processes, see their "
               "URING_BAD events; not events, not lost)\n",
               (unsigned long long)kev_rejected_total(r));
    if (kev_timer_lost_total(r)) // the program's pulses: the trace kept every event
        printf("timer pulses lost: %llu (user timers' pulses with no room, see the TIMER_LOST "
               "events; not trace events lost)\n", (unsigned long long)kev_timer_lost_total(r));
    if (r->kr_have_trailer && (r->kr_trl_flags & KEV_TRL_FILLED))
        printf("note: tracing stopped because every buffer was full (fill mode)\n");
    if (r->kr_have_trailer && (r->kr_trl_flags & KEV_TRL_HOST_LOSS))
        printf("note: the live stream's host did not take some buffers: the logger dropped "
               "them whole (missing buffers) and counted them as lost\n");
}

int main(int argc, char **argv)
{
    struct opts o = { DEFAULT_FORMAT, 0, 0, NULL, 0 };
    struct tool_args a = { argc, argv, 0, NULL };
    for (int id; (id = tool_opts_next(&cmd, &a)) != TOOL_OPTS_END;) {
        if (id < 0)
            return tool_opts_exit(id);
        if (id == 'n') {
            o.one_line = 1;
        } else if (id == 'm') {
            o.merge = 1;
        } else if (id == 'p') {
            o.fmt = a.val;
            o.custom_fmt = 1;
        } else if (syms_take(cmd.name, id, a.val) < 0) {
            return 2;
        }
    }
    if (tool_one_file(&cmd, &a, &o.file))
        return 2;
    if (check_format(o.fmt)) {
        fprintf(stderr, "traceprinter: bad -p FORMAT \"%s\" (see --help)\n", o.fmt);
        return 2;
    }
    size_t len = 0;
    int mapped = 0;
    uint8_t *data = tool_map_file(o.file, &len, &mapped); // constant memory at any size
    if (!data) {
        fprintf(stderr, "traceprinter: %s: %s\n", o.file, strerror(errno));
        return 1;
    }
    static struct kev_reader r;
    static struct printer pr;
    pr.o = &o;
    int rc = kev_open(&r, data, len);
    syms_trace(cmd.name, data, len);
    if (!rc) {
        print_header(&r);
        kev_set_user(&r, &pr);
        kev_on_any(&r, print_event);
        r.kr_file_order = !o.merge;
        rc = kev_decode(&r);
        char note[128];
        uint32_t nt;
        // the loss note, as QNX's printer shows it (default format only)
        if (!rc && !o.custom_fmt && kev_loss_note_text(&r, &nt, note, sizeof(note)))
            printf("t:0x%08x CPU:00 SYSTEM  :SLOG             opcode:%u severity:%u message:%s\n",
                   nt, KEV_LOSS_NOTE_OPCODE, KEV_LOSS_NOTE_SEVERITY, note);
        print_summary(&r, rc);
    }
    fflush(stdout);
    syms_end();
    tool_unmap_file(data, len, mapped);
    if (rc) {
        fprintf(stderr, "traceprinter: %s: %s\n", o.file, kev_error(&r));
        return 1;
    }
    return 0;
}
