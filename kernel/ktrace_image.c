// SPDX-License-Identifier: MIT
// What each process runs, for the trace: SYSTEM IMAGE [pid, info, load address, build id]
// then the name (trace/kev.h, docs/trace-events.md "Images and build ids"). Written once a
// process, when it is created (proc_spawn) and in the START snapshot, and the kernel's own
// (pid 0, named by the image's ELF file as the build wrote it: apps.S's kernel_image_path) at
// every START. Host tools find each ELF file by its GNU build id and refuse one whose id
// differs. The ids are the notes the linker scripts keep in flash (ldscripts/), read in place
// and checked: a note that does not lie whole in its image, or is no GNU build id, is written
// as no id (length 0). No D probe; no lock (the ring's producer takes care of its own).
#include <kernel/ktrace.h>
#include <kernel/kview.h>
#include <uapi/kapi.h>
#include <kev_emit_gen.h>

// The kernel image's note and extent (ldscripts/kernel.ld.S) and its ELF file's name (the
// image's apps.S); weak, so that a build without them (the host's unit tests) writes none.
extern const char __kernel_build_id[] __attribute__((weak));
extern const char __kernel_build_id_end[] __attribute__((weak));
extern const char __kernel_image_base[] __attribute__((weak));
extern const char kernel_image_path[] __attribute__((weak));

#define NT_GNU_BUILD_ID 3u
#define NOTE_HEADER     16u     // namesz, descsz, type, "GNU\0"

// The id of the GNU build-id note at note, which must end by end: its length, 0 when there is
// none (no note, misaligned, not whole before end, not GNU's, longer than the event holds).
static unsigned note_id(uintptr_t note, uintptr_t end, const uint8_t **id)
{
    if (!note || (note & 3u) || note >= end || end - note < NOTE_HEADER)
        return 0;
    const uint32_t *h = (const uint32_t *)note;
    const uint8_t *name = (const uint8_t *)(h + 3);
    uint32_t descsz = h[1];
    if (h[0] != 4u || h[2] != NT_GNU_BUILD_ID || descsz == 0 || descsz > KEV_IMAGE_ID_MAX ||
        end - note - NOTE_HEADER < descsz || name[0] != 'G' || name[1] != 'N' ||
        name[2] != 'U' || name[3] != 0)
        return 0;
    *id = name + 4;
    return descsz;
}

void ktrace_image_ev(const struct proc *p)
{
    if (!ktrace.tr_running)
        return;
    const uint8_t *id = NULL;
    unsigned len;
    uint32_t base;
    const char *name;
    if (p) {
        base = p->flash_base;
        len = note_id(p->app->build_id, proc_app_end(p), &id);
        name = p->name;
    } else {
        base = (uint32_t)(uintptr_t)__kernel_image_base;
        len = note_id((uintptr_t)__kernel_build_id, (uintptr_t)__kernel_build_id_end, &id);
        name = kernel_image_path ? kernel_image_path : "";
    }
    uint32_t w[KEV_IMAGE_WORDS + KEV_IMAGE_ID_MAX / 4u] = { 0 }; // (the id's last word padded)
    kev_pack_image(w, p ? (uint32_t)p->pid : 0u, len, base);     // the row's layout
    kmemcpy(&w[KEV_IMAGE_WORDS], id, len);  // bytes in memory order, as strings are stored
    trace_emit_string(&ktrace, KEV_C_SYSTEM, KEV_SYS_IMAGE, w, KEV_IMAGE_WORDS + (len + 3u) / 4u,
                      name);
}
