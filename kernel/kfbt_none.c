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
    for (uint32_t k = 0; k < st->obj.hdr->dh_nprobes; k++)
        if (DPROBE_IS_FBT(st->obj.probes[k].dp_id)) {
            *why = "fbt: this kernel places no fbt probes (docs/fbt.md, \"Boards\")";
            return -ENOENT;
        }
    return 0;
}

void kfbt_disable(void)
{
}

int kfbt_copy_table(struct proc *p, uint32_t buf, uint32_t len)
{
    (void)p; (void)buf; (void)len;
    return -ENOENT;
}
