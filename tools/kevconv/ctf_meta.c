// SPDX-License-Identifier: MIT
// TSDL metadata of the CTF 1.8 traces kev2ctf writes (layout and ids in ctf_meta.h). Event
// names and fields follow the LTTng kernel tracer where an equivalent exists (sched_switch,
// sched_waking, sched_process_fork/exec/exit/free, lttng_statedump_*, irq_handler_entry/exit,
// syscall_entry_<name>/syscall_exit_<name>), so babeltrace2 and Trace Compass's kernel views
// read them; the rest use kev_* classes that keep every .kev event.
#include "ctf_meta.h"

#include <ctype.h>
#include <string.h>
#include <trace/kev.h>
#include <trace/kev_decode.h>
#include <trace/kev_events.h>
#include <trace/kev_kercall.h>
#include <trace/kev_stack.h>
#include <kevhost/syms_usdt.h>

// The fields every per-thread event declares first, in this order (tid, pid, vtid)
#define THREAD_FIELDS "\t\tint32_t tid;\n\t\tint32_t pid;\n\t\tint32_t vtid;\n"

static void str(FILE *f, const char *s)
{
    putc('"', f);
    for (; s && *s; s++)
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f)
            putc(*s, f);
    putc('"', f);
}

static const char *const header =
    "/* CTF 1.8 */\n\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
    "typealias integer { size = 8; align = 8; signed = false; encoding = UTF8; base = 10; }"
    " := char_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; base = 16; } := uint32_hex_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; base = 16; } := uint64_hex_t;\n\n";

// The enumerations of our SYSTEM events' fields, written from the event table's value names
// (trace/kev_events.c) so that they cannot differ from it. A value without a label is shown
// as its number.
static void enum_of(FILE *f, const char *name, const char *(*label)(unsigned), unsigned n)
{
    fprintf(f, "typealias enum : %s {", !strcmp(name, "kev_state_t") ? "int32_t" : "uint8_t");
    const char *sep = " ";
    for (unsigned v = 0; v < n; v++) {
        const char *l = label(v);
        if (!l || l[0] == '?')
            continue;
        fprintf(f, "%s\"%s\" = %u", sep, l, v);
        sep = ", ";
    }
    fprintf(f, " } := %s;\n", name);
}

static void enums(FILE *f)
{
    enum_of(f, "kev_state_t", kev_thread_state_name, KEV_TH_DESTROY + 1); // THCREATE is 24
    enum_of(f, "kev_signal_t", kev_signal_name, 32);
    enum_of(f, "kev_fault_kind_t", kev_fault_kind_name, KEV_FAULT_NKINDS);
    enum_of(f, "kev_stack_kind_t", kev_stack_kind_name, 16);
    enum_of(f, "kev_stack_end_t", kev_stack_ended_name, 16);
    enum_of(f, "kev_prio_cause_t", kev_prio_cause_name, KEV_PRIO_NCAUSES);
    fputs("typealias enum : uint8_t { unknown = 0, mutex = 13, condvar = 14, semaphore = 17 }"
          " := kev_sync_kind_t;\n\n", f);
}

enum ctf_ftype ctf_field_type(unsigned kind)
{
    switch (kind) {
    case KEV_K_S32: return CTF_T_S64;
    case KEV_K_HEX: case KEV_K_ADDR: case KEV_K_WHO: return CTF_T_HEX;
    case KEV_K_STRING: return CTF_T_STR;
    case KEV_K_WORDS: case KEV_K_ADDRS: case KEV_K_U64S: return CTF_T_SEQ;
    default: return CTF_T_U64;
    }
}

static struct ctf_kclass kclass[2][KEV_KC_MAX]; // [0] entries, [1] exits

// The words of a QNX layout (trace/kev_kercall.c: one a field, "@NAME" none).
static unsigned layout_words(const char *s)
{
    unsigned n = 0;
    while (s && *s) {
        n += *s != '@';
        while (*s && *s != ' ')
            s++;
        while (*s == ' ')
            s++;
    }
    return n;
}

// Add to c the fields the decoder gives event ev of nw words w (the names c lacks, in order).
static void kclass_add(struct ctf_kclass *c, const struct kev_reader *r, unsigned ev,
                       const uint32_t *w, unsigned nw, int exit)
{
    static struct kev_fields fs;
    struct kev_event e = { .cls = KEV_C_KER_CALL, .ev = ev, .w = w, .nw = nw,
                           .nslots = (nw + 1) / 2 };
    kev_fields_decode(r, &e, &fs);
    for (unsigned k = 0; k < fs.n && c->n < KEV_MAX_FIELDS; k++) {
        unsigned i = 0;
        while (i < c->n && strcmp(c->f[i].name, fs.f[k].name))
            i++;
        if (i < c->n || (exit && !strcmp(fs.f[k].name, "ret")) || !strcmp(fs.f[k].name, "more"))
            continue;   // ("more": words past the layout, which no event of the call should have)
        snprintf(c->f[c->n].name, sizeof(c->f[c->n].name), "%s", fs.f[k].name);
        c->f[c->n++].kind = fs.f[k].kind;
    }
}

void ctf_kcall_layouts(const struct kev_reader *r)
{
    static const uint32_t zero[2u * KEV_MAX_COMBINE_SLOTS];
    static const uint32_t failed[2] = { 0xffffffffu, 1 };
    for (unsigned c = 0; c < KEV_KC_MAX; c++) {
        const char *qe = c < QNX_KERCALL_NUM ? qnx_kercalls[c].entry : NULL;
        const char *qx = c < QNX_KERCALL_NUM ? qnx_kercalls[c].exit : NULL;
        unsigned we = layout_words(qe) > 6 ? layout_words(qe) : 6; // (ours: 6 registers)
        unsigned wx = layout_words(qx) > 2 ? layout_words(qx) : 2;
        kclass[0][c].n = kclass[1][c].n = 0;
        kclass_add(&kclass[0][c], r, KEV_KC_ENTRY(c), zero, 2, 0);
        kclass_add(&kclass[0][c], r, KEV_KC_ENTRY(c), zero, we, 0);
        kclass_add(&kclass[1][c], r, KEV_KC_EXIT(c), zero, 2, 1);
        kclass_add(&kclass[1][c], r, KEV_KC_EXIT(c), zero, wx, 1);
        kclass_add(&kclass[1][c], r, KEV_KC_EXIT(c), failed, 2, 1);
    }
}

const struct ctf_kclass *ctf_kcall_class(unsigned call, int exit)
{
    return &kclass[exit != 0][call % KEV_KC_MAX];
}

static void field_decl(FILE *f, const char *name, unsigned kind)
{
    switch (ctf_field_type(kind)) {
    case CTF_T_S64: fprintf(f, "\t\tint64_t %s;\n", name); break;
    case CTF_T_HEX: fprintf(f, "\t\tuint64_hex_t %s;\n", name); break;
    case CTF_T_STR: fprintf(f, "\t\tstring %s;\n", name); break;
    case CTF_T_SEQ:
        fprintf(f, "\t\tuint32_t _%s_length;\n\t\t%s %s[_%s_length];\n", name,
                kind == KEV_K_U64S ? "uint64_t" : "uint64_hex_t", name, name);
        break;
    default: fprintf(f, "\t\tuint64_t %s;\n", name); break;
    }
}

// The entry and exit classes of call c, named syscall_entry_<kc> and syscall_exit_<kc>.
static void kcall_decl(FILE *f, const char *kc, unsigned c, unsigned entry_id, unsigned exit_id)
{
    char name[64];
    snprintf(name, sizeof(name), "syscall_entry_%s", kc);
    // The arguments named by the table (trace/kev_kercall.c); nargs says how many words
    // the entry recorded (2 fast, 6 wide): a field past them was not recorded, written 0.
    fprintf(f, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n"
               "\tfields := struct {\n\t\tuint8_t nargs;\n", name, entry_id);
    const struct ctf_kclass *ke = ctf_kcall_class(c, 0);
    for (unsigned k = 0; k < ke->n; k++)
        field_decl(f, ke->f[k].name, ke->f[k].kind);
    fputs("\t};\n};\n\n", f);
    // LTTng's ret (the result, -errno on failure), interrupted (QNX's interrupted call),
    // then the exit's words as the table names them: errno, or the call's own results.
    snprintf(name, sizeof(name), "syscall_exit_%s", kc);
    fprintf(f, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n"
               "\tfields := struct {\n\t\tint64_t ret;\n\t\tuint8_t interrupted;\n", name,
            exit_id);
    const struct ctf_kclass *kx = ctf_kcall_class(c, 1);
    for (unsigned k = 0; k < kx->n; k++)
        field_decl(f, kx->f[k].name, kx->f[k].kind);
    fputs("\t};\n};\n\n", f);
}

int ctf_table_function(const struct kev_event_desc *d)
{
    return d->cls == KEV_C_SYSTEM && (d->lo == KEV_SYS_FUNC_ENTER || d->lo == KEV_SYS_FUNC_EXIT);
}

// The USDT probes' classes made so far (ctf_usdt_class), declared after the table's.
static struct syms_usdt usdt_class[CTF_USDT_MAX];
static unsigned nusdt_class;

int ctf_usdt_class(const struct syms_usdt *p)
{
    for (unsigned i = 0; i < nusdt_class; i++) {
        const struct syms_usdt *c = &usdt_class[i];
        if (!strcmp(c->probe, p->probe) && !strcmp(c->module, p->module) &&
            c->nargs == p->nargs && !memcmp(c->size, p->size, sizeof(c->size)))
            return (int)i;
    }
    if (nusdt_class == CTF_USDT_MAX)
        return -1;
    usdt_class[nusdt_class] = *p;
    return (int)nusdt_class++;
}

static void usdt_events(FILE *f)
{
    for (unsigned i = 0; i < nusdt_class; i++) {
        const struct syms_usdt *c = &usdt_class[i];
        fputs("event {\n\tname = ", f);
        str(f, c->probe);
        fprintf(f, ";\n\tid = %u;\n\tstream_id = 0;\n\tfields := struct {\n"
                   THREAD_FIELDS
                   "\t\tuint64_hex_t site;\n\t\tstring module;\n\t\tstring function;\n",
                CTF_ID_USDT + i);
        for (unsigned k = 0; k < c->nargs && k < SYMS_USDT_ARGS; k++)
            fprintf(f, "\t\t%s arg%u;\n", c->size[k] < 0 ? "int64_t" : "uint64_t", k);
        fputs("\t};\n};\n\n", f);
    }
}

// The class of a table row: kev_<name in lower case>, its fields the row's (a USER-like row's
// data field may be text instead: both are declared, one written empty), and a function's
// name after them where the row holds a function's address (ctf_table_function).
static void table_event(FILE *f, unsigned row, const struct kev_event_desc *d)
{
    char name[64] = "kev_";
    size_t n = strlen(name);
    for (const char *p = d->name; *p && n + 1 < sizeof(name); p++)
        name[n++] = (char)tolower((unsigned char)*p);
    name[n] = 0;
    fprintf(f, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n"
               "\tfields := struct {\n\t\tuint16_t kev_event;\n", name, CTF_ID_TABLE + row);
    for (unsigned k = 0; k < d->nfields; k++) {
        if (d->fields[k].layout == KEV_L_USER)
            field_decl(f, "text", KEV_K_STRING);
        field_decl(f, d->fields[k].name, d->fields[k].kind);
    }
    if (ctf_table_function(d))
        field_decl(f, "function", KEV_K_STRING);
    fputs("\t};\n};\n\n", f);
}

// An event, with an event context of its own when context is not NULL.
static void event_ctx(FILE *f, unsigned id, const char *name, const char *context,
                      const char *fields)
{
    fprintf(f, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n", name, id);
    if (context)
        fprintf(f, "\tcontext := struct {\n%s\t};\n", context);
    fprintf(f, "\tfields := struct {\n%s\t};\n};\n\n", fields);
}

static void event(FILE *f, unsigned id, const char *name, const char *fields)
{
    event_ctx(f, id, name, NULL, fields);
}

// The trace block: CTF's version, the trace's uuid u, the packet header.
static void trace_decl(FILE *f, const char *u)
{
    fputs(header, f);
    fprintf(f, "trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n\tbyte_order = le;\n"
               "\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n"
               "\t\tuint32_t stream_id;\n\t\tuint64_t stream_instance_id;\n\t};\n};\n\n", u);
}

// The env block: LTTng's kernel tracer as Trace Compass expects it, and the target's names.
static void env_decl(FILE *f, const struct ctf_env *env)
{
    fprintf(f, "env {\n\tdomain = \"kernel\";\n\ttracer_name = \"lttng-modules\";\n"
               "\ttracer_major = 2;\n\ttracer_minor = 12;\n\ttracer_patchlevel = 0;\n"
               "\tconverter = \"kev2ctf\";\n"
               "\tthread_id_rule = \"tid = QNX pid * 1000 + QNX tid, pid = QNX pid * 1000 + 1, idle 0\";\n");
    fputs("\thostname = ", f), str(f, env->hostname), fputs(";\n", f);
    fputs("\tsysname = ", f), str(f, env->sysname), fputs(";\n", f);
    fputs("\tkernel_release = ", f), str(f, env->release), fputs(";\n", f);
    fputs("\tkernel_version = ", f), str(f, env->version), fputs(";\n", f);
    fputs("\tmachine = ", f), str(f, env->machine), fputs(";\n", f);
    fputs("\tboard = ", f), str(f, env->board), fputs(";\n};\n\n", f);
}

// The clock block (the target's cycle counter) and the timestamp type mapped to it.
static void clock_decl(FILE *f, const char *u, const struct ctf_clock *clk)
{
    fprintf(f, "clock {\n\tname = \"monotonic\";\n\tuuid = \"%s\";\n"
               "\tdescription = \"target cycle counter\";\n\tfreq = %llu;\n\tprecision = 1;\n"
               "\toffset_s = %lld;\n\toffset = 0;\n\tabsolute = FALSE;\n};\n\n",
            u, (unsigned long long)clk->freq, (long long)clk->offset_s);
    fputs("typealias integer { size = 64; align = 8; signed = false;"
          " map = clock.monotonic.value; } := uint64_clock_monotonic_t;\n\n", f);
}

// The one stream: each event's header, each packet's context.
static void stream_decl(FILE *f)
{
    fputs("stream {\n\tid = 0;\n\tevent.header := struct {\n\t\tuint32_t id;\n"
          "\t\tuint64_clock_monotonic_t timestamp;\n\t};\n"
          "\tpacket.context := struct {\n\t\tuint64_clock_monotonic_t timestamp_begin;\n"
          "\t\tuint64_clock_monotonic_t timestamp_end;\n\t\tuint64_t content_size;\n"
          "\t\tuint64_t packet_size;\n\t\tuint64_t packet_seq_num;\n"
          "\t\tuint64_t events_discarded;\n\t\tuint32_t cpu_id;\n\t};\n};\n\n", f);
}

// The scheduler's events and the statedump's, as LTTng's kernel tracer names them.
static void sched_events(FILE *f)
{
    // its context: of the run it ends, what prev's CPU executed (cycles of the clock): an
    // emulator that ran the CPUs in turn counts other CPUs' turns in the run (kx_stats.h), so
    // the sum of a thread's prev_exec_cycles is its executed CPU time, kevstat's "executed"
    event_ctx(f, CTF_ID_SCHED_SWITCH, "sched_switch", "\t\tuint64_t _prev_exec_cycles;\n",
          "\t\tchar_t prev_comm[16];\n\t\tint32_t prev_tid;\n\t\tint32_t prev_prio;\n"
          "\t\tint64_t prev_state;\n\t\tchar_t next_comm[16];\n\t\tint32_t next_tid;\n"
          "\t\tint32_t next_prio;\n");
    event(f, CTF_ID_SCHED_WAKING, "sched_waking",
          "\t\tchar_t comm[16];\n\t\tint32_t tid;\n\t\tint32_t prio;\n\t\tint32_t target_cpu;\n");
    event(f, CTF_ID_SCHED_PROCESS_FORK, "sched_process_fork",
          "\t\tchar_t parent_comm[16];\n\t\tint32_t parent_tid;\n\t\tint32_t parent_pid;\n"
          "\t\tchar_t child_comm[16];\n\t\tint32_t child_tid;\n\t\tint32_t child_pid;\n");
    // a thread switched in on another CPU than it last ran on (kevstat's migrations), as
    // LTTng's, which lttng-cputop counts
    event(f, CTF_ID_SCHED_MIGRATE_TASK, "sched_migrate_task",
          "\t\tchar_t comm[16];\n\t\tint32_t tid;\n\t\tint32_t prio;\n\t\tint32_t orig_cpu;\n"
          "\t\tint32_t dest_cpu;\n");
    event(f, CTF_ID_SCHED_PROCESS_EXIT, "sched_process_exit",
          "\t\tchar_t comm[16];\n\t\tint32_t tid;\n\t\tint32_t prio;\n");
    event(f, CTF_ID_SCHED_PROCESS_EXEC, "sched_process_exec",
          "\t\tstring filename;\n\t\tint32_t tid;\n\t\tint32_t old_tid;\n");
    event(f, CTF_ID_SCHED_PROCESS_FREE, "sched_process_free",
          "\t\tchar_t comm[16];\n\t\tint32_t tid;\n\t\tint32_t prio;\n");
    event(f, CTF_ID_STATEDUMP_START, "lttng_statedump_start", "");
    event(f, CTF_ID_STATEDUMP_END, "lttng_statedump_end", "");
    event(f, CTF_ID_STATEDUMP_PROCESS_STATE, "lttng_statedump_process_state",
          "\t\tint32_t tid;\n\t\tint32_t vtid;\n\t\tint32_t pid;\n\t\tint32_t vpid;\n"
          "\t\tint32_t ppid;\n\t\tint32_t vppid;\n\t\tchar_t name[16];\n\t\tint32_t type;\n"
          "\t\tint32_t mode;\n\t\tint32_t submode;\n\t\tint32_t status;\n\t\tint32_t cpu;\n"
          "\t\tkev_state_t kev_state;\n");
}

// Interrupts, then our own kev_* events (threads, processes, timers, user events, SYSTEM).
static void kev_events(FILE *f)
{
    event(f, CTF_ID_IRQ_HANDLER_ENTRY, "irq_handler_entry",
          "\t\tint32_t irq;\n\t\tstring name;\n");
    event(f, CTF_ID_IRQ_HANDLER_EXIT, "irq_handler_exit", "\t\tint32_t irq;\n\t\tint32_t ret;\n");
    event(f, CTF_ID_KEV_IRQ_HANDLER_ENTRY, "kev_irq_handler_entry", "\t\tint32_t irq;\n");
    event(f, CTF_ID_KEV_IRQ_HANDLER_EXIT, "kev_irq_handler_exit", "\t\tint32_t irq;\n");
    event(f, CTF_ID_KEV_THREAD_STATE, "kev_thread_state",
          THREAD_FIELDS "\t\tkev_state_t state;\n"
          "\t\tint32_t prio;\n");
    event(f, CTF_ID_KEV_PROCESS_CREATE, "kev_process_create",
          "\t\tint32_t ppid;\n\t\tint32_t pid;\n\t\tint32_t vpid;\n\t\tstring name;\n");
    event(f, CTF_ID_KEV_PROCESS_DESTROY, "kev_process_destroy",
          "\t\tint32_t ppid;\n\t\tint32_t pid;\n\t\tint32_t vpid;\n\t\tstring name;\n");
    event(f, CTF_ID_KEV_THREAD_NAME, "kev_thread_name",
          THREAD_FIELDS "\t\tstring name;\n");
    event(f, CTF_ID_KEV_TIMER, "kev_timer_expire", "\t\tuint32_t timer_id;\n\t\tint32_t pid;\n");
    event(f, CTF_ID_KEV_USER, "kev_user",
          "\t\tuint16_t code;\n\t\tstring text;\n\t\tuint32_t _data_length;\n"
          "\t\tuint32_t data[_data_length];\n");
    // Our SYSTEM events, fields named (docs/trace-events.md): a fault with the function
    // holding its pc; a stack with its frames named (both from the ELF files the capture ran,
    // found by build id: "0x..." when none names them); a priority change as LTTng's
    // sched_pi_setprio (Trace Compass's thread priority follows it: LTTng priorities, kx_ids.h)
    // with the kernel's own priorities and cause; a thread blocking on a mutex, semaphore or
    // condvar with its owner (Linux tid, -1 when none); what a process runs, with its build id.
    event(f, CTF_ID_KEV_FAULT, "kev_fault",
          THREAD_FIELDS "\t\tkev_signal_t signal;\n"
          "\t\tkev_fault_kind_t kind;\n\t\tuint8_t addr_valid;\n\t\tuint64_hex_t pc;\n"
          "\t\tuint64_hex_t addr;\n\t\tstring function;\n");
    event(f, CTF_ID_KEV_STACK, "kev_stack",
          THREAD_FIELDS "\t\tkev_stack_kind_t kind;\n"
          "\t\tkev_stack_end_t ended;\n\t\tuint8_t at_max;\n\t\tuint32_t _pcs_length;\n"
          "\t\tuint64_hex_t pcs[_pcs_length];\n\t\tstring frames[_pcs_length];\n");
    event(f, CTF_ID_SCHED_PI_SETPRIO, "sched_pi_setprio",
          "\t\tchar_t comm[16];\n\t\tint32_t tid;\n\t\tint32_t oldprio;\n\t\tint32_t newprio;\n"
          "\t\tint32_t vpid;\n\t\tint32_t vtid;\n\t\tint32_t old_prio;\n"
          "\t\tint32_t new_prio;\n\t\tkev_prio_cause_t cause;\n");
    event(f, CTF_ID_KEV_SYNC_WAIT, "kev_sync_wait",
          THREAD_FIELDS "\t\tkev_sync_kind_t kind;\n"
          "\t\tuint32_t object;\n\t\tint32_t owner_tid;\n\t\tint32_t owner_vpid;\n"
          "\t\tint32_t owner_vtid;\n");
    event(f, CTF_ID_KEV_IMAGE, "kev_image",
          "\t\tint32_t pid;\n\t\tint32_t vpid;\n\t\tuint32_hex_t load;\n\t\tstring build_id;\n"
          "\t\tstring name;\n");
    event(f, CTF_ID_KEV_UNKNOWN, "kev_unknown",
          "\t\tuint8_t kev_class;\n\t\tuint16_t kev_event;\n\t\tuint32_t _words_length;\n"
          "\t\tuint32_t words[_words_length];\n");
}

// The COMM class's events, named kev_comm_<event> from the event table.
static void comm_events(FILE *f)
{
    for (unsigned ev = 0; ev < KEV_COMM_NEVENTS; ev++) {
        char name[48] = "kev_comm_";
        const char *s = kev_comm_name(ev);
        size_t n = strlen(name);
        for (; s && *s && n + 1 < sizeof(name); s++)
            name[n++] = (char)tolower((unsigned char)*s);
        name[n] = 0;
        // the table's fields (kev2ctf.c writes them by name), then the tid of the thread that ran
        fprintf(f, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n"
                   "\tfields := struct {\n", name, CTF_ID_KEV_COMM + ev);
        const struct kev_event_desc *d = kev_event_describe(KEV_C_COMM, ev);
        for (unsigned k = 0; d && k < d->nfields; k++)
            field_decl(f, d->fields[k].name, d->fields[k].kind);
        fputs("\t\tint32_t tid;\n\t};\n};\n\n", f);
    }
}

// A syscall_entry_<name>/syscall_exit_<name> pair per kernel call.
static void kcall_events(FILE *f)
{
    for (unsigned c = 0; c < KEV_KC_MAX; c++) {
        char kc[24];
        if (kev_kcall_name(c))
            snprintf(kc, sizeof(kc), "%s", kev_kcall_name(c));
        else
            snprintf(kc, sizeof(kc), "kc%u", c);
        kcall_decl(f, kc, c, CTF_ID_SYSCALL_ENTRY + c, CTF_ID_SYSCALL_EXIT + c);
    }
    // the API's name where QNX gives two calls one number (kev_kcall_api_name), the fields its
    // number's
    kcall_decl(f, "CondBroadcast", 83, CTF_ID_SYSCALL_ENTRY_BROADCAST, CTF_ID_SYSCALL_EXIT_BROADCAST);
}

void ctf_write_metadata(FILE *f, const uint8_t uuid[16], const struct ctf_clock *clk,
                        const struct ctf_env *env)
{
    char u[40];
    snprintf(u, sizeof(u),
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             uuid[0], uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7], uuid[8],
             uuid[9], uuid[10], uuid[11], uuid[12], uuid[13], uuid[14], uuid[15]);
    trace_decl(f, u);
    env_decl(f, env);
    clock_decl(f, u, clk);
    enums(f);
    stream_decl(f);
    sched_events(f);
    kev_events(f);
    comm_events(f);
    kcall_events(f);
    for (unsigned i = 0; i < kev_event_rows(); i++)
        if (!kev_event_row(i)->kcall)
            table_event(f, i, kev_event_row(i));
    usdt_events(f);
}
