// SPDX-License-Identifier: MIT
// conv_args.h: a converter's options, its output file and its trace.
#include "conv_args.h"

#include <kevhost/tool_syms.h>

int conv_args(const struct tool_cmd *cmd, int argc, char **argv, const char **in,
              const char **out)
{
    struct tool_args a = { argc, argv, 0, NULL };
    *in = *out = NULL;
    for (int id; (id = tool_opts_next(cmd, &a)) != TOOL_OPTS_END;) {
        if (id < 0)
            return tool_opts_exit(id);
        if (id == 'o')
            *out = a.val;
        else if (syms_take(cmd->name, id, a.val) < 0)
            return 2;
    }
    return tool_one_file(cmd, &a, in) ? 2 : -1;
}
