#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Kept rows against the walk (test/tools/test_kevsql_keep.c) on kevgen's traces: the SQL
# fuzzer's 100 events, 2,000 with failing and wide kernel calls, and an overwrite ring.
#   test/tools/test_kevsql_keep.sh HOST_TEST_DIR HOST_DIR
set -u
HT=$(cd "$1" && pwd) H=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$H/kevgen" -n 100 -o "$tmp/small.kev" > /dev/null &&
    "$H/kevgen" -n 2000 -e -s 3 -o "$tmp/calls.kev" > /dev/null &&
    "$H/kevgen" -n 3000 -x overwrite -k 4 -s 5 -o "$tmp/ring.kev" > /dev/null ||
    { echo "not ok 1 - kevgen made the traces"; echo "1..1"; exit 1; }
cd "$tmp" && "$HT/test_kevsql_keep" small.kev calls.kev ring.kev
