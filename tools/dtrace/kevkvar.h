// SPDX-License-Identifier: MIT
// dtrace -i's kernel variables: D's `name over a capture, which holds no kernel memory.
#ifndef DTRACE_KEVKVAR_H
#define DTRACE_KEVKVAR_H

#include <stdint.h>

/* kev_kvar_object: the compiler's lookup of `name (dcc_kvar's signature: elfsym_object over
 * the kernel image), recorded so that a read over the capture knows which object it is. */
int kev_kvar_object(const char *mod, const char *name, uint64_t *addr, uint64_t *size);
/* kev_kvar_replay: the engine's kernel reads (dvm_kread) for a replay over a capture of ncpus
 * CPUs: an object whose value the capture's events determine reads that value, next_pid (the
 * kernel's next process id, `mpid + 1) one more than the highest pid the capture has shown
 * so far (kev_replay_pid_max), k_ncpus (`ncpus) the capture's CPUs; any other object reads
 * 0, said once on stderr with its name. */
void kev_kvar_replay(unsigned ncpus);

#endif
