#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Rewrites docs/event-table.md's tables, everything after its marker line, from the event
# table: build/host/kevtable's output, then build/host/emitgen -l's (what the build generates
# for each row, by name), so that the page says what trace/kev_events.c does.
# usage: scripts/event-table-doc.sh [HOSTDIR]   (default build/host; run make tools first)
set -eu
case ${1:-} in
    -h|--help) sed -n '3,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
cd "$(dirname "$0")/.."
host=${1:-build/host}
page=docs/event-table.md
marker='<!-- kevtable: the lines below are generated -->'
for tool in kevtable emitgen; do
    if [ ! -x "$host/$tool" ]; then
        echo "event-table-doc.sh: $host/$tool is missing: run 'make -j2 $host/$tool' first" >&2
        exit 1
    fi
done
grep -qxF "$marker" "$page" || { echo "event-table-doc.sh: $page has no line '$marker'" >&2; exit 1; }
tmp=$(mktemp)
sed "/^$marker\$/q" "$page" > "$tmp"
"$host/kevtable" >> "$tmp"
"$host/emitgen" -l >> "$tmp"
mv "$tmp" "$page"
