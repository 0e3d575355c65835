#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks that the tools this project builds and tests with are installed, and installs the
# missing ones from Debian's packages when run as root. Otherwise it prints the exact command.
#   scripts/setup.sh            what `make` and `make run` need
#   scripts/setup.sh --test     also what `make test` needs (cmocka, clang for the fuzzers,
#                               babeltrace2, headless chromium, chromium-driver and
#                               python3-selenium for the analysis tools and the web page,
#                               curl, python3-distributed and python3-pandas for kevsql's
#                               Dask cluster, Debian's debuginfod server for the symbols
#                               test, protoc to decode
#                               kev2perfetto's output by Perfetto's schema, LTTng's
#                               analyses to read kev2ctf's output)
#   scripts/setup.sh --bench    also what `make bench` needs (babeltrace2: the kevconv
#                               benchmark times it beside our converters; headless chromium
#                               for kevweb's figures)
# Set-up never removes a package: apt runs with --no-remove, and when a package is in the way
# (apt would have to remove it to install ours) this says which and stops.
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -eu

want_test=0 want_bench=0
case "${1:-}" in
--test) want_test=1 ;;
--bench) want_bench=1 ;;
"") ;;
*) echo "usage: scripts/setup.sh [--test | --bench]" >&2; exit 2 ;;
esac

missing=()
# SETUP_HIDE="a b": take commands a and b as missing (test/tools/test_setup.sh).
have() {
    case " ${SETUP_HIDE:-} " in *" $1 "*) return 1 ;; esac
    command -v "$1" >/dev/null 2>&1
}

have arm-none-eabi-gcc || missing+=(gcc-arm-none-eabi)
[ -f /usr/lib/picolibc/arm-none-eabi/picolibc.specs ] || missing+=(picolibc-arm-none-eabi)
[ -d /usr/lib/arm-none-eabi/newlib ] || missing+=(libnewlib-arm-none-eabi)
have qemu-system-arm || missing+=(qemu-system-arm)
# The x86-pc board (BOARD=x86-pc, and the board matrix of make test).
have i686-linux-gnu-gcc || missing+=(gcc-i686-linux-gnu)
have qemu-system-i386 || missing+=(qemu-system-x86)
# The qemu-virt-a53 board (aarch64; qemu-system-aarch64 comes with qemu-system-arm).
have aarch64-linux-gnu-gcc || missing+=(gcc-aarch64-linux-gnu)
[ -f /usr/lib/picolibc/aarch64-linux-gnu/picolibc.specs ] || missing+=(picolibc-aarch64-linux-gnu)
have gdb-multiarch || missing+=(gdb-multiarch)
# USDT probes in programs (user/include/usdt.h, docs/usdt.md): Debian's sys/sdt.h.
[ -n "$(ls /usr/include/sys/sdt.h /usr/include/*/sys/sdt.h 2>/dev/null)" ] || missing+=(systemtap-sdt-dev)
# stacksym (make dtrace's symbolised stacks): elfutils' libdwfl and libelf.
[ -f /usr/include/elfutils/libdwfl.h ] || missing+=(libdw-dev)
[ -f /usr/include/gelf.h ] || missing+=(libelf-dev)
# Every host tool that names code addresses asks debuginfod servers (DEBUGINFOD_URLS) for an
# ELF file found nowhere else (tools/common/tool_syms.c): elfutils' libdebuginfod.
[ -f /usr/include/elfutils/debuginfod.h ] || missing+=(libdebuginfod-dev)
# fbtgen's i386 decoder (tools/common/fbt_i386.c): Capstone's instruction lengths and operands.
[ -f /usr/include/capstone/capstone.h ] || missing+=(libcapstone-dev)
# The live reader (tools/common/kev_live.c): zlib's CRC-32 checks the stream.
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
# kevsql (docs/sql.md): SQLite's library and headers; its interactive shell is Debian's sqlite3.
[ -f /usr/include/sqlite3ext.h ] || missing+=(libsqlite3-dev)
have sqlite3 || missing+=(sqlite3)
if [ "$want_test" = 1 ]; then
    [ -f /usr/include/cmocka.h ] || missing+=(libcmocka-dev)
    have clang || missing+=(clang)
    have babeltrace2 || missing+=(babeltrace2)
    # the symbols test serves a build with Debian's debuginfod server on loopback
    have debuginfod || missing+=(debuginfod)
    have chromium || missing+=(chromium)
    # kevreport's browser test: chromedriver and Debian's selenium client for Debian's python3
    have chromedriver || missing+=(chromium-driver)
    /usr/bin/python3 -c 'import selenium' 2>/dev/null || missing+=(python3-selenium)
    have python3 || missing+=(python3)
    # kevweb's tests ask its server for pages as a client would (test/tools/test_kevweb.sh)
    have curl || missing+=(curl)
    # kevsql --scheduler and its test: a Dask distributed cluster on Debian's python3
    /usr/bin/python3 -c 'import distributed' 2>/dev/null || missing+=(python3-distributed)
    /usr/bin/python3 -c 'import pandas' 2>/dev/null || missing+=(python3-pandas)
    # kev2perfetto's output decoded by Perfetto's schema (test/tools/check_perfetto_protoc.py)
    have protoc || missing+=(protobuf-compiler)
    # LTTng's own analyses (lttng-cputop, ...) read kev2ctf's output (test/tools/test_lttng_analyses.sh)
    have lttng-cputop || missing+=(python3-lttnganalyses)
    # the long-function rule's checker reads each function's extent (scripts/long-functions.sh)
    have ctags-universal || missing+=(universal-ctags)
fi
if [ "$want_bench" = 1 ]; then
    have babeltrace2 || missing+=(babeltrace2)
    # kevweb's figures with its page open in headless Chromium (scripts/bench-kevweb.sh)
    have chromium || missing+=(chromium)
    have chromedriver || missing+=(chromium-driver)
    /usr/bin/python3 -c 'import selenium' 2>/dev/null || missing+=(python3-selenium)
fi

[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get update && apt-get install -y --no-remove ${missing[*]}"
# SETUP_DRY_RUN=1: say what is missing and install nothing (test/tools/test_setup.sh).
if [ "$(id -u)" != 0 ] || ! have apt-get || [ "${SETUP_DRY_RUN:-0}" = 1 ]; then
    echo "setup: missing packages: ${missing[*]}" >&2
    echo "setup: run as root:  $cmd" >&2
    exit 1
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# Ask apt first what it would do: any removal means a package of the machine is in the way.
plan=$(apt-get install -s -y --no-remove "${missing[@]}" 2>&1) || {
    echo "setup: apt cannot install ${missing[*]} without removing packages:" >&2
    apt-get install -s -y "${missing[@]}" 2>/dev/null | sed -n 's/^Remv \([^ ]*\).*/setup:   would remove \1/p' >&2
    echo "$plan" | tail -5 | sed 's/^/setup: apt: /' >&2
    echo "setup: nothing was installed or removed; remove or hold the package(s) named above yourself, then run: $cmd" >&2
    exit 1
}
apt-get install -y -qq --no-remove "${missing[@]}" >/dev/null
echo "setup: done"
