#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the D engine's bare-metal benchmark under QEMU with -icount shift=0 (deterministic:
# one ns of virtual time per instruction) and prints its BENCH lines.
set -eu
elf=${1:-build/mps2-an385/d/dbench_target.elf}
timeout 300 qemu-system-arm -M mps2-an385 -nographic -monitor none -icount shift=0 \
    -semihosting-config enable=on,target=native -kernel "$elf"
