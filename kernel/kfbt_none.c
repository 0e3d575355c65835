// SPDX-License-Identifier: MIT
// The fbt provider's kernel side on an architecture that has no fbt trap (kernel/kfbt.h): no
// table, and a program that enables fbt probes is refused with the reason.
#include <kernel/kfbt.h>
#include <d/dvm.h>
#include <d/dprobes.h>
#include <d/dif.h>

struct kfbt_sites kfbt_kernel;
struct kfbt_stats kfbt_stats;

const struct dfbt *kfbt_table(void)
{
    return NULL;
}

int kfbt_enable(struct dvm_state *st, const char **why)
{
    if (!dif_enables_range(&st->obj, DPROBE_FBT_BASE, DPROBE_FBT_END))
        return 0;
    *why = "fbt: this kernel places no fbt probes (docs/fbt.md, \"Boards\")";
    return -ENOENT;
}

void kfbt_disable(void)
{
}

int kfbt_copy_table(struct proc *p, uint32_t buf, uint32_t len)
{
    (void)p; (void)buf; (void)len;
    return -ENOENT;
}
