// SPDX-License-Identifier: MIT
// Options of a D program run on a target: the defaults sized for a board, and the settings
// `#pragma D option` and `-x name=value` make, resolved into a dobj_file_hdr. Shared by the
// host's dcompile and the target's dtrace (which compiles on the board when it has room).
#ifndef D_DOBJ_OPTS_H
#define D_DOBJ_OPTS_H

#include <stddef.h>
#include <d/dcc.h>
#include <d/dobj_file.h>

/* dobj_defaults: a header with the target defaults: bufsize 8k, aggsize 256k, dynvarsize 64k,
 * specsize 4k, nspec 1, switch policy, bufresize auto, switchrate 1hz, not quiet. */
void dobj_defaults(struct dobj_file_hdr *h);

/* dobj_set_option: applies one option (val NULL for a flag such as quiet). Returns 0, or -1
 * with "invalid value for option N: V" or "unsupported option: N" in err. */
int dobj_set_option(struct dobj_file_hdr *h, const char *name, const char *val, char *err,
                    size_t errlen);

/* dobj_apply_options: the compiled program's `#pragma D option` settings in source order,
 * then the command line's -x arguments ("name" or "name=value", split in place), which win.
 * Stops at the first bad one: -1 with the reason in err. */
int dobj_apply_options(struct dobj_file_hdr *h, const struct dcc_out *co, char **xs, int nx,
                       char *err, size_t errlen);

#endif
