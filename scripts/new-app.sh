#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make new-app NAME=<name>`: writes user/apps/<name>/ from scripts/app-template/ (a periodic
# sensor task and the ctrl server it reports to, found by name, one user event per reading),
# ready for `make run APPS=<name>`. Refuses an existing directory and a name that is not a C-like word.
#   scripts/new-app.sh NAME
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
name=${1:-}
here=$(cd "$(dirname "$0")/.." && pwd)
if ! [[ $name =~ ^[a-z][a-z0-9_]{0,14}$ ]]; then
    echo "usage: make new-app NAME=<name>  (a-z, 0-9, _; starting with a letter; at most 15)" >&2
    exit 2
fi
dir=$here/user/apps/$name
if [ -e "$dir" ] || [ "$name" = tracelogger ]; then
    echo "new-app: user/apps/$name already exists" >&2
    exit 1
fi
mkdir -p "$dir"
for f in main.c app.mk; do
    sed "s/@NAME@/$name/g" "$here/scripts/app-template/$f" > "$dir/$f"
done
echo "new-app: wrote user/apps/$name/ (main.c, app.mk). Next:"
echo "  make run APPS=$name                      boot it with a trace capture (trace.kev, trace.html)"
echo "  make dtrace APPS=$name D='user:::event /arg0 == 100/ { @avg = avg(arg2); }'"
echo "  ARGS := -s  (or -c <server>) in app.mk  two such programs find each other by name"
echo "  docs/applications.md                     the walk-through, and the other boards"
