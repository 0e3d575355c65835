// SPDX-License-Identifier: MIT
// kev2perfetto's description of the system (kev2perfetto.h): the ClockSnapshot (trace time is
// BOOTTIME, REALTIME the boot date at 0), SystemInfo (utsname, CPUs) and the ProcessTree, with
// the ids every converter gives (kx_ids.h).
#include <stdlib.h>

#include "kev2perfetto.h"

void pf_process_tree(struct conv *c)
{
    const struct kx_model *m = c->m;
    struct pb tree = { 0 };
    for (unsigned i = 0; i < m->nth; i++) {
        const struct kx_thread *t = &m->th[i];
        if (kx_is_idle(m, (int)i))
            continue;
        int seen = 0;
        for (unsigned j = 0; j < i && !seen; j++)
            seen = m->th[j].pid == t->pid && !kx_is_idle(m, (int)j);
        if (!seen) {
            c->sub.len = 0;
            pb_int(&c->sub, 1, kx_pid_of(t->pid));
            pb_int(&c->sub, 2, kx_lppid(m, t->pid));
            pb_str(&c->sub, 3, t->comm[0] ? t->comm : t->name);
            pb_bytes(&tree, 1, c->sub.p, c->sub.len);
        }
        c->sub.len = 0;
        pb_int(&c->sub, 1, kx_ltid(m, (int)i));
        pb_str(&c->sub, 2, kx_lcomm(m, (int)i));
        pb_int(&c->sub, 3, kx_lpid(m, (int)i));
        pb_bytes(&tree, 2, c->sub.p, c->sub.len);
    }
    c->pkt.len = 0;
    pb_int(&c->pkt, 8, (int64_t)pf_ns(c, m->first_t));
    pb_bytes(&c->pkt, 2, tree.p, tree.len);
    pb_int(&c->pkt, 10, 100);
    pf_put_packet(c);
    free(tree.p);
}

static void clock_entry(struct pb *b, struct pb *tmp, unsigned id, uint64_t t)
{
    tmp->len = 0;
    pb_int(tmp, 1, id);
    pb_int(tmp, 2, (int64_t)t);
    pb_bytes(b, 1, tmp->p, tmp->len);
}

// Trace time is BOOTTIME (ftrace's clock): 0 at boot, when REALTIME was the boot date.
void pf_clock_snapshot(struct conv *c, const struct kev_reader *r)
{
    struct pb snap = { 0 };
    int64_t boot = kx_boot_time(r);
    clock_entry(&snap, &c->sub, 6, 0);
    clock_entry(&snap, &c->sub, 1, boot > 0 ? (uint64_t)boot * 1000000000u : 0);
    pb_int(&snap, 2, 6);
    c->pkt.len = 0;
    pb_int(&c->pkt, 8, 0);
    pb_bytes(&c->pkt, 6, snap.p, snap.len);
    pb_int(&c->pkt, 10, 100);
    pf_put_packet(c);
    free(snap.p);
}

static void attr_str(struct pb *b, unsigned field, const struct kev_reader *r, const char *key)
{
    unsigned n;
    const char *v = kev_attr(r, key, &n);
    if (v)
        pb_bytes(b, field, v, n);
}

void pf_system_info(struct conv *c, const struct kev_reader *r)
{
    struct pb info = { 0 };
    c->sub.len = 0;
    attr_str(&c->sub, 1, r, "SYSNAME");
    attr_str(&c->sub, 2, r, "SYS_VERSION");
    attr_str(&c->sub, 3, r, "SYS_RELEASE");
    attr_str(&c->sub, 4, r, "MACHINE");
    pb_bytes(&info, 1, c->sub.p, c->sub.len);
    unsigned ncpu = r->kr_have_trailer ? r->kr_trl_ncpu : r->kr_board_ncpu;
    pb_int(&info, 8, ncpu ? ncpu : 1);
    c->pkt.len = 0;
    pb_bytes(&c->pkt, 45, info.p, info.len);
    pb_int(&c->pkt, 10, 100);
    pf_put_packet(c);
    free(info.p);
}
