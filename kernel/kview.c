// SPDX-License-Identifier: MIT
// What the layers around the core read of it (kernel/kview.h): the image's programs, processes
// by pid, a process's memory, a thread's queue. Answered from the core's tables with no call
// into the core's code that changes them (and so into the tracing layer, which that code
// calls), so that the tracing layer's calls into the core close no cycle (docs/ARCHITECTURE.md,
// "The kernel's layers"). The program table is written once at boot (proc_scan_apps) and read
// only after; the rest reads the tables under whatever lock its caller holds.
#include <kernel/kview.h>
#include <kernel/ipc.h>
#include <kernel/arch.h>

#define KMAX_APPS 64
static const struct kapp_header *apps[KMAX_APPS];
static unsigned napps;
static uint32_t apps_end;           // the end of the program slots (apps[] is in slot order)
static uint32_t app_slot_size;      // bytes of flash a program's slot has

int proc_scan_apps(uint32_t flash_base, uint32_t slot_size, unsigned nslots)
{
    app_slot_size = slot_size;
    napps = 0;
    for (unsigned i = 0; i < nslots && napps < KMAX_APPS; i++) {
        const struct kapp_header *h =
            (const struct kapp_header *)(uintptr_t)(flash_base + i * slot_size);
        if (h->magic != KAPP_MAGIC)
            continue;
        if (h->version != KAPP_VERSION || h->name[KAPP_NAME_MAX - 1] != '\0' ||
            !arch_mpu_region_ok(h->ram_base, h->ram_size) || h->usdt_notes_end < h->usdt_notes ||
            (h->mmio_size && !arch_mpu_region_ok(h->mmio_base, h->mmio_size))) {
            kprintf("kernel: program slot %u: bad header, ignored\n", i);
            continue;
        }
        // A program larger than a slot takes the slots after its own (user/module.mk
        // <name>_FLASH_SLOTS): they hold its code, not headers.
        uint32_t end = h->exidx_end > h->data_source + h->data_size
                           ? h->exidx_end : h->data_source + h->data_size;
        if (h->usdt_notes_end > end)
            end = h->usdt_notes_end;
        uint32_t span = end - (uint32_t)(uintptr_t)h, more = 0;
        if (end > (uint32_t)(uintptr_t)h && span > slot_size)
            more = (span - 1u) / slot_size;
        if (more >= nslots - i)
            more = nslots - i - 1u;
        apps[napps++] = h;
        i += more;
    }
    apps_end = flash_base + nslots * slot_size;
    return (int)napps;
}

const struct kapp_header *proc_find_app(const char *name)
{
    for (unsigned i = 0; i < napps; i++)
        if (kstrncmp(apps[i]->name, name, KAPP_NAME_MAX) == 0)
            return apps[i];
    return NULL;
}

uint32_t proc_app_end(const struct proc *p)
{
    for (unsigned i = 0; i < napps; i++)
        if (apps[i] == p->app)
            return i + 1u < napps ? (uint32_t)(uintptr_t)apps[i + 1] : apps_end;
    return p->flash_base + app_slot_size;
}

struct proc *proc_by_pid(int pid)
{
    for (unsigned i = 0; i < KMAX_PROCS; i++)
        if (k_procs[i].state != PROC_FREE && k_procs[i].pid == pid)
            return &k_procs[i];
    return NULL;
}

static bool range_inside(uint32_t addr, uint32_t len, uint32_t base, uint32_t size)
{
    return addr >= base && len <= size && addr - base <= size - len;
}

bool proc_can_write(const struct proc *p, uint32_t addr, uint32_t len)
{
    return p && range_inside(addr, len, p->ram_base, p->ram_size);
}

bool proc_can_read(const struct proc *p, uint32_t addr, uint32_t len)
{
    return p && (range_inside(addr, len, p->ram_base, p->ram_size) ||
                 range_inside(addr, len, p->flash_base, p->flash_size) ||
                 (p->map_len && range_inside(addr, len, p->map_base, p->map_len)) ||
                 (p->map2_len && range_inside(addr, len, p->map2_base, p->map2_len)));
}

int proc_copy_string(const struct proc *p, uint32_t uaddr, char *dst, size_t size)
{
    for (size_t i = 0; i < size; i++) {
        if (!proc_can_read(p, uaddr + (uint32_t)i, 1))
            return -EFAULT;
        dst[i] = *(const volatile char *)(uintptr_t)(uaddr + i);
        if (dst[i] == '\0')
            return (int)i;
    }
    dst[size - 1] = '\0';
    return -EINVAL;
}
