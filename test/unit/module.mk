# SPDX-License-Identifier: MIT
# Host unit tests of the portable kernel code. Each test_<x>.c is one binary, linked with the
# kernel sources it exercises (listed in <x>_SRCS).
