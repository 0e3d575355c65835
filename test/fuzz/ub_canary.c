// SPDX-License-Identifier: MIT
// A libFuzzer target with one undefined behaviour on purpose, for test_fuzz_ub.sh: an input
// starting with 'U' adds its second byte to INT_MAX (signed overflow, C11 6.5p5). Built with
// `make fuzz`'s own flags, it shows that the first UBSan report stops the fuzzer and fails
// `make fuzz`. It is never in FUZZ_BINS.
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
volatile int ub_canary_sink; // the sum goes somewhere the compiler must keep

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 2 && data[0] == 'U') {
        volatile int big = INT_MAX; // volatile: the compiler cannot fold the overflow away
        ub_canary_sink = big + (int)data[1] + 1;
    }
    return 0;
}
