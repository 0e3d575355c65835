#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Symbols from anywhere (docs/symbols.md): a capture taken to a place where its build directory
# is gone still has its frames named, from the build-id cache ~/.debug and from a debuginfod
# server, by every tool that names frames (dtrace -i, kevstat, kev2json). user/apps/stackfault
# faults three calls deep under the stackfault image's tracelogger; the capture's record of its
# build directory is pointed at a directory that does not exist (kev_image_path.py) and the
# tools run from a scratch directory with no build/, an empty HOME and an empty debuginfod
# client cache. The oracles: binutils' addr2line on the build's ELF file for each raw frame
# (dtrace -i --no-symbols' ustack( ), callers at their return address - 1), and the program's
# source (fault_c, fault_b, fault_a, main). The server is Debian's debuginfod scanning a copy
# of the build's ELF files, on 127.0.0.1 at a free port, in a network namespace of its own when
# the machine allows one (debuginfod listens on every interface: there only loopback exists),
# bounded in time and stopped at the end.
#   test/stacks/test_symbols_anywhere.sh BUILD_DIR HOST_DIR
set -u
B=$(cd "$1" && pwd); H=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/test/qemu/tap_lib.sh"
. "$here/test/stacks/stacks_lib.sh"
img=$B/stackfault.elf
elf=$B/stackfault/stackfault.elf
a2l=$(addr2line_of "$elf")
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# files in $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
echo "1..7"
D='proc:::fault { ustack(); }'
"$H/dcompile" -n "$D" -o "$tmp/f.dobj" || { echo "not ok 1 - dcompile"; exit 1; }
(cd "$tmp" && QEMU_ARGS="dtrace -c appinit $tmp/f.dobj ;; appinit stackfault ;; tracelogger -d1 -f cap.kev" \
    QEMU_ICOUNT=1 QEMU_TIMEOUT=120 "$here/scripts/qemu-run.sh" "$img" > "$tmp/run.out" 2>&1)
[ -s "$tmp/cap.kev" ]
ok $? "the stackfault image ran and the tracelogger wrote the capture"
[ -s "$tmp/cap.kev" ] || { sed 's/^/# /' "$tmp/run.out" | tail -10; exit 1; }

# The truth: each raw frame's function by addr2line (a caller at its return address - 1)
"$H/dtrace" -q --no-symbols -i "$tmp/cap.kev" -n "$D" 2>/dev/null | grep -o '0x[0-9a-f]*' > "$tmp/pcs"
truth=$(k=0; while read -r pc; do printf '0x%x\n' $((pc - (k++ > 0))); done < "$tmp/pcs" |
    "$a2l" -f -e "$elf" | awk 'NR % 2 == 1' | tr '\n' ' ')
case $truth in "fault_c fault_b fault_a main "*) r=0 ;; *) r=1 ;; esac
ok $r "addr2line names the capture's $(wc -l < "$tmp/pcs") raw frames as the program's source calls them: $truth"

# The capture somewhere else: its build directory a name that does not exist, run from a
# directory without build/, HOME empty (no ~/.debug), the client cache empty.
mkdir -p "$tmp/away" "$tmp/home" "$tmp/cache"
python3 "$here/test/stacks/kev_image_path.py" "$tmp/cap.kev" "$tmp/away/cap.kev" /gone/stackfault.elf > /dev/null
away() {   # away TOOL ARGS...: the tool from the scratch directory
    (cd "$tmp/away" && env -u DEBUGINFOD_URLS HOME="$tmp/home" DEBUGINFOD_CACHE_PATH="$tmp/cache" "$@")
}
names() { stack_names | tr '\n' ' '; }
away "$H/dtrace" -q -i cap.kev -n "$D" > "$tmp/none.out" 2> "$tmp/none.err"
grep -q 'no ELF file of stackfault .*debuginfod (DEBUGINFOD_URLS is not set)' "$tmp/none.err" &&
    ! grep -q 'fault_c' "$tmp/none.out"
ok $? "build directory gone, nothing else: the frames stay raw and dtrace -i says where it looked"
[ $? = 0 ] || sed 's/^/# /' "$tmp/none.err" | head -3

# perf's build-id cache in HOME
id=$(readelf -n "$elf" | sed -n 's/ *Build ID: *//p')
mkdir -p "$tmp/home/.debug/.build-id/${id:0:2}"
cp "$elf" "$tmp/home/.debug/.build-id/${id:0:2}/${id:2}.debug"
got=$(away "$H/dtrace" -q -i cap.kev -n "$D" 2>/dev/null | grep '`' | names)
[ -n "$truth" ] && [ "$got" = "$truth" ]
ok $? "~/.debug/.build-id (perf's cache): dtrace -i names the frames as addr2line does: $got"
rm -rf "$tmp/home/.debug"

# Debian's debuginfod server over a copy of the build's ELF files
mkdir -p "$tmp/served"
cp "$img" "$tmp/served/" && cp -r "$B/stackfault" "$tmp/served/"
cat > "$tmp/served.sh" <<'SH'
# run inside the namespace (or not): serve, wait until the id is served, ask, stop the server
set -u
tmp=$1 H=$2 id=$3 D=$4 ns=$5
[ "$ns" = 1 ] && ip link set lo up
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
timeout 150 debuginfod -F -p "$port" -d "$tmp/db.sqlite" -t 0 -g 0 "$tmp/served" > "$tmp/server.log" 2>&1 &
srv=$!
url=http://127.0.0.1:$port
served=0
for _ in $(seq 1 120); do     # its first scan: at most 60 s
    if curl -sf -o /dev/null "$url/buildid/$id/debuginfo"; then served=1; break; fi
    kill -0 $srv 2>/dev/null || break
    sleep 0.5
done
echo "served $served" > "$tmp/served.status"
cd "$tmp/away"
export HOME=$tmp/home DEBUGINFOD_CACHE_PATH=$tmp/cache DEBUGINFOD_URLS=$url DEBUGINFOD_TIMEOUT=20
"$H/dtrace" -q -i cap.kev -n "$D" > "$tmp/dbg.out" 2> "$tmp/dbg.err"
rm -rf "$tmp/cache"/*         # each tool asks the server itself
"$H/kevstat" -s faults cap.kev > "$tmp/kevstat.out" 2>&1
rm -rf "$tmp/cache"/*
"$H/kev2json" cap.kev > "$tmp/json.out" 2>&1
kill $srv 2>/dev/null
wait $srv 2>/dev/null
exit 0
SH
ns=0
unshare -rn true 2>/dev/null && ns=1
if [ $ns = 1 ]; then
    timeout 200 unshare -rn bash "$tmp/served.sh" "$tmp" "$H" "$id" "$D" 1
else
    timeout 200 bash "$tmp/served.sh" "$tmp" "$H" "$id" "$D" 0
fi
grep -q 'served 1' "$tmp/served.status" 2>/dev/null
ok $? "debuginfod serves the build's stackfault.elf by its build id $id on 127.0.0.1 ($([ $ns = 1 ] && echo "a namespace of its own" || echo "the machine's loopback"))"
[ $? = 0 ] || sed 's/^/# server: /' "$tmp/server.log" | tail -5
got=$(grep '`' "$tmp/dbg.out" | names)
[ -n "$truth" ] && [ "$got" = "$truth" ]
ok $? "DEBUGINFOD_URLS, build directory gone: dtrace -i names the frames as addr2line does: $got"
[ $? = 0 ] && : || sed 's/^/# /' "$tmp/dbg.err" | head -3
grep -q 'in stackfault`fault_c+0x[0-9a-f]* \[stackfault.c:[0-9]*\]' "$tmp/kevstat.out" &&
    grep -q '"function": *"stackfault`fault_c+0x[0-9a-f]*"' "$tmp/json.out"
ok $? "the same server names the fault for kevstat -s faults (function and line) and kev2json (function)"
[ $? = 0 ] || { sed 's/^/# kevstat: /' "$tmp/kevstat.out" | head -8; grep -o '"function[^,]*' "$tmp/json.out" | head -3 | sed 's/^/# kev2json: /'; }
