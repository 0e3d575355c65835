#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks that the tools this project builds and tests with are installed, and installs the
# missing ones from Debian's packages when run as root. Otherwise it prints the exact command.
#   scripts/setup.sh            what `make` and `make run` need
#   scripts/setup.sh --test     also what `make test` needs (cmocka, clang for the fuzzers,
#                               babeltrace2 and headless chromium for the analysis tools)
set -eu

want_test=0
[ "${1:-}" = "--test" ] && want_test=1

missing=()
have() { command -v "$1" >/dev/null 2>&1; }

have arm-none-eabi-gcc || missing+=(gcc-arm-none-eabi)
[ -f /usr/lib/picolibc/arm-none-eabi/picolibc.specs ] || missing+=(picolibc-arm-none-eabi)
[ -d /usr/lib/arm-none-eabi/newlib ] || missing+=(libnewlib-arm-none-eabi)
have qemu-system-arm || missing+=(qemu-system-arm)
# The x86-pc board (BOARD=x86-pc, and the board matrix of make test).
have i686-linux-gnu-gcc || missing+=(gcc-i686-linux-gnu)
have qemu-system-i386 || missing+=(qemu-system-x86)
have gdb-multiarch || missing+=(gdb-multiarch)
if [ "$want_test" = 1 ]; then
    [ -f /usr/include/cmocka.h ] || missing+=(libcmocka-dev)
    have clang || missing+=(clang)
    have babeltrace2 || missing+=(babeltrace2)
    have chromium || missing+=(chromium)
    have python3 || missing+=(python3)
fi

[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get update && apt-get install -y ${missing[*]}"
if [ "$(id -u)" = 0 ] && have apt-get; then
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq "${missing[@]}" >/dev/null
    echo "setup: done"
else
    echo "setup: missing packages: ${missing[*]}" >&2
    echo "setup: run as root:  $cmd" >&2
    exit 1
fi
