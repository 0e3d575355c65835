// SPDX-License-Identifier: MIT
// kev2perfetto's instants (kev2perfetto.h): a message's send, receive and reply as flow
// points on the threads' tracks, written once it is received; user events ("NAME: value") and
// faults with their args; and every event no other view places, named and with its fields as
// the event table gives them, on the track of the thread it is about.
#include <string.h>

#include "kev2perfetto.h"
#include <kevhost/syms_usdt.h>
#include <kevhost/tool_syms.h>

// One flow point of message g: an instant on the track with the flow id (field 47, or 48
// to terminate the flow).
// (name: "msg send", "pulse receive", ...)
static void flow_point(struct conv *c, const struct kx_msg *g, int th, unsigned irq, uint64_t t,
                       const char *name, unsigned flow_field)
{
    pf_describe(c, th, irq);
    size_t at = pf_te_begin(c, t);
    pb_fixed64(&c->pkt, flow_field, g->id);
    pf_te_end(c, at, pf_track_uuid(c, th, irq), 3, NULL, name);
}

// A user event on the track of the thread that wrote it: "NAME: value" as every tool names
// it, with its code, its text (or its words through the registered format) and its words as
// "data" (the event table's name for them).
void pf_user_event(struct conv *c, const struct kev_reader *r, const struct kev_event *e)
{
    int th = kx_cpu_thread(c->m, e->cpu);
    uint32_t pid = th >= 0 ? c->m->th[th].pid : 0;
    char name[300], value[256], words[12 * 16 + 4];
    kx_user_text(r, &c->ureg, pid, e, 0, value, sizeof(value)); // (the registry follows)
    const struct kev_ureg_entry *u = kev_userreg_find(&c->ureg, pid, e->ev);
    if (u) // "NAME: value", as kx_user_text's with the name (value is shorter than name)
        snprintf(name, sizeof(name), "%s: %s", u->name, value);
    else if (!kx_user_string(r, e, name, sizeof(name)))
        snprintf(name, sizeof(name), "user %u", e->ev);
    size_t k = 0;
    words[0] = 0;
    for (unsigned i = 0; i < e->nw && i < 16; i++) // (11 bytes at most each: they fit)
        k += pf_hex_item(words + k, i, e->w[i]);
    words[k] = 0;
    pf_describe(c, th, 0);
    size_t at = pf_te_begin(c, e->t64);
    pf_arg_uint(&c->pkt, "code", e->ev, 0);
    pf_arg_str(&c->pkt, "value", value);
    pf_arg_str(&c->pkt, "data", words);
    pf_te_end(c, at, pf_track_uuid(c, th, 0), 3, "user", name);
}

// A fault on the faulting thread's track: "fault SIGSEGV", with what the FAULT says, the
// function holding its pc, and the stack the kernel recorded after it, frames named.
void pf_fault_instant(struct conv *c, const struct cf_fault *x)
{
    const struct kev_fault *f = &x->f;
    int th = kx_thread(c->m, f->pid, f->tid);
    char name[64], fn[512], stack[8192];
    snprintf(name, sizeof(name), "fault %s", kev_signal_name(f->sig));
    pf_describe(c, th, 0);
    size_t at = pf_te_begin(c, x->t);
    struct pb *te = &c->pkt;
    pf_arg_str(te, "signal", kev_signal_name(f->sig));
    pf_arg_uint(te, "signo", f->sig, 0);
    pf_arg_str(te, "kind", kev_fault_kind_name(f->kind));
    pf_arg_uint(te, "pc", f->pc, 1);
    if (f->addr_valid)
        pf_arg_uint(te, "addr", f->addr, 1);
    syms_pc(f->pc, 0, fn, sizeof(fn), NULL, 0);
    pf_arg_str(te, "function", fn);
    if (x->have_stack) {
        syms_stack(x->s.pcs, x->s.depth, "\n", stack, sizeof(stack));
        pf_arg_str(te, "stack", stack);
    }
    pf_te_end(c, at, pf_track_uuid(c, th, 0), 3, "fault", name);
}

// A USDT firing on the firing thread's track (cur), named provider:probe from its program's
// note (syms_usdt.h), category "usdt", with the probe's parts, its program, function and site,
// and each argument as the program passed it, "arg0", "arg1", ... as D names them: an int
// value where the note says it is signed, else a uint. A site no file names: the event's
// instant as the table names it.
void pf_usdt_instant(struct conv *c, const struct kev_reader *r, const struct kev_event *e,
                     int cur)
{
    static struct kev_fields fs;
    struct syms_usdt_firing f;
    if (c->m->in_snapshot)
        return;
    kev_fields_decode(r, e, &fs);
    if (syms_usdt_firing(&fs, &f) != 0 || !f.p) {
        pf_table_instant(c, r, e, cur);
        return;
    }
    pf_describe(c, cur, 0);
    size_t at = pf_te_begin(c, e->t64);
    struct pb *te = &c->pkt;
    pf_arg_str(te, "provider", f.p->provider);
    pf_arg_str(te, "probe", f.p->name);
    pf_arg_str(te, "module", f.p->module);
    pf_arg_str(te, "function", f.p->function);
    pf_arg_uint(te, "site", f.site, 1);
    for (unsigned k = 0; k < f.nargs; k++) {
        char key[8] = "arg0";
        key[3] = (char)('0' + k);
        if (syms_usdt_signed(&f, k))
            pf_arg_int(te, key, (int64_t)f.arg[k]);
        else
            pf_arg_uint(te, key, f.arg[k], 0);
    }
    pf_te_end(c, at, pf_track_uuid(c, cur, 0), 3, "usdt", f.p->probe);
}

// The send kept in record i, if it was never placed, as an instant with its fields.
void pf_sent_place(struct conv *c, const struct kev_reader *r, unsigned i)
{
    struct sent_msg *s = &c->sent[i];
    if (!s->pending)
        return;
    s->pending = 0;
    s->e.w = s->w;
    pf_table_instant(c, r, &s->e, s->th);
}

// A message's send, receive and reply as flow points; a receive or reply no message of the
// capture explains (its send not recorded, its threads not known, or a COMM event the
// matching does not follow) as an instant with its fields instead, so that none is dropped.
// A send waits for its receive (no flow has only a start); one never received - its record
// taken by a later send, or still waiting at the end - is an instant with its fields.
void pf_comm_event(struct conv *c, const struct kev_reader *r, const struct kev_event *e)
{
    const struct kx_msg *g;
    enum kx_msg_step step = kx_msgs_event(c->q, c->m, e, &g);
    unsigned i = step != KX_MSG_NONE ? (unsigned)(g - c->q->m) % KX_MSG_MAX : 0;
    if (step == KX_MSG_SEND) {
        pf_sent_place(c, r, i); // the record's last send, dropped by the matching unreceived
        struct sent_msg *s = &c->sent[i];
        s->e = *e;
        s->e.nw = e->nw < SENT_WORDS ? e->nw : SENT_WORDS;
        memcpy(s->w, e->w, s->e.nw * sizeof(*s->w));
        s->th = pf_current_of(c->m, e->cpu);
        s->pending = !c->m->in_snapshot;
    } else if (step == KX_MSG_RECV && g->server >= 0 && (g->client >= 0 || g->irq)) {
        c->sent[i].pending = 0;
        flow_point(c, g, g->client, g->irq, g->t_send, g->pulse ? "pulse send" : "msg send", 47);
        flow_point(c, g, g->server, 0, e->t64, g->pulse ? "pulse receive" : "msg receive",
                   g->pulse ? 48 : 47);
    } else if (step == KX_MSG_REPLY) {
        if (g->client >= 0 && g->server >= 0)
            flow_point(c, g, g->client, 0, e->t64, g->pulse ? "pulse reply" : "msg reply", 48);
        else
            pf_table_instant(c, r, e, pf_current_of(c->m, e->cpu));
        kx_msgs_release(c->q, g);
    } else if (e->ev != KEV_COMM_SIGNAL) { // (SIGNAL: on_event's)
        if (step == KX_MSG_RECV)
            pf_sent_place(c, r, i); // received, but no flow could be drawn
        pf_table_instant(c, r, e, pf_current_of(c->m, e->cpu));
    }
}

// "kev.<class name>" (kev.? for a class without one), made once a class.
static const char *class_cat(unsigned cls)
{
    static char cat[KEV_NCLASS + 1][16];
    unsigned i = cls < KEV_NCLASS ? cls : KEV_NCLASS;
    if (!cat[i][0])
        snprintf(cat[i], sizeof(cat[i]), "kev.%s", i < KEV_NCLASS && kev_class_name(i)
                                                       ? kev_class_name(i) : "?");
    return cat[i];
}

// An event no view above places: an instant named as the table names it, on the track of the
// thread it is about (its "who", or pid and tid) or else cur (the thread current on its CPU
// when it was written).
void pf_table_instant(struct conv *c, const struct kev_reader *r, const struct kev_event *e,
                      int cur)
{
    static struct kev_fields fs;
    if (c->m->in_snapshot)
        return;
    kev_fields_decode(r, e, &fs);
    int th = -1;
    const struct kev_field *who = kev_field_get(&fs, "who");
    const struct kev_field *pid = kev_field_get(&fs, "pid"), *tid = kev_field_get(&fs, "tid");
    if (who && who->v)
        th = kx_thread(c->m, kev_who_pid(who->v), kev_who_tid(who->v));
    else if (pid && tid)
        th = kx_thread(c->m, (uint32_t)pid->v, (uint32_t)tid->v);
    if (th < 0)
        th = cur;
    pf_describe(c, th, 0);
    size_t at = pf_te_begin(c, e->t64);
    pf_table_args(&fs, &c->pkt);
    pf_te_end(c, at, pf_track_uuid(c, th, 0), 3, class_cat(e->cls), fs.name);
}
