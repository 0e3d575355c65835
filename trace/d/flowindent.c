// SPDX-License-Identifier: MIT
// dtrace -F (the flowindent option): a probe's line shows the call flow instead of the CPU,
// ID and FUNCTION:NAME columns, as dtrace(1M) prints it. A probe named "entry" (or ending
// "-entry") prints " -> func" and indents what follows by two columns; "return" ("-return")
// comes back two columns and prints " <- func"; any other probe prints "| func:name" at the
// current indent. The syscall provider's arrows are " => " and " <= ". One indent for the whole
// session, as libdtrace keeps one per consumer.
#include <d/dcons.h>
#include "dutil.h"

static int named(const char *name, const char *what)
{
    size_t n = d_strlen(name), w = d_strlen(what);
    return n >= w && !d_strcmp(name + n - w, what) && (n == w || name[n - w - 1] == '-');
}

void dcons_flow_line(struct dcons *c, unsigned cpu, const struct dif_obj *o,
                     const struct dif_probe *p)
{
    const char *prov = dif_str(o, p->dp_prov), *func = dif_str(o, p->dp_func),
               *name = dif_str(o, p->dp_name);
    int sys = !d_strcmp(prov, "syscall");
    int entry = named(name, "entry"), ret = !entry && named(name, "return");
    if (!c->header_done) {
        struct dfmt_arg a[2] = { { 's', 0, "CPU" }, { 's', 0, "FUNCTION" } };
        dfmt_printf(&c->out, "%3s %-41s\n", a, 2, NULL, NULL);
        c->header_done = 1;
    }
    if (ret && c->flow_depth > 0)
        c->flow_depth -= 2;
    char line[200];
    unsigned k = 0;
    for (int i = 0; i < c->flow_depth && k < 120; i++)
        line[k++] = ' ';
    line[k] = '\0';
    d_strlcat(line, entry ? (sys ? " => " : " -> ") : ret ? (sys ? " <= " : " <- ") : "| ",
              sizeof(line));
    d_strlcat(line, func, sizeof(line));
    if (!entry && !ret) {
        d_strlcat(line, ":", sizeof(line));
        d_strlcat(line, name, sizeof(line));
    }
    struct dfmt_arg a[2] = { { 'l', (int64_t)cpu, 0 }, { 's', 0, line } };
    dfmt_printf(&c->out, "%3d %-41s ", a, 2, NULL, NULL);
    if (entry)
        c->flow_depth += 2;
}
