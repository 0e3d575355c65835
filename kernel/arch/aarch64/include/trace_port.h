// SPDX-License-Identifier: MIT
// The trace port the include path finds for kernel builds: the same for every architecture.
#include <kernel/trace_port_kernel.h>
