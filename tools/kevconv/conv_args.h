// SPDX-License-Identifier: MIT
// The command line the converters share (kev2json, kev2perfetto): -o FILE, the symbol options
// (tool_syms.h) and the one trace, read by the tools' one option loop (tool_opts.h).
#ifndef CONV_ARGS_H
#define CONV_ARGS_H

#include <kevhost/tool_opts.h>

// Reads argv into *in (the trace) and *out (-o's value, NULL when not given): -1 to go on,
// else the exit status (0 after --help; 2 bad usage, said).
int conv_args(const struct tool_cmd *cmd, int argc, char **argv, const char **in,
              const char **out);

#endif
