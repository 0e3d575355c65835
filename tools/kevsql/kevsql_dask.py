#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# kevsql --scheduler tcp://HOST:PORT: the query over many traces on a Dask distributed cluster
# (docs/sql.md, "Many traces, many machines"). The scheduler and workers are Dask's own
# (Debian's python3-distributed: dask-scheduler and dask-worker started as Dask's docs say); this
# is only their client. A task is a batch of traces (four batches a worker thread): a worker
# opens each with the extension (kevsql.so, through Python's sqlite3 module), runs the query
# and returns the batch's rows as one pandas DataFrame, each with its trace and the trace's
# metadata first; the client concatenates them and prints them, or puts
# them in an in-memory SQLite table "result" and prints --merge's answer, in kevsql's formats.
# A trace (and the extension) goes by its path when every worker sees the same file there
# (same size), and as bytes otherwise: the task writes them to a file of its own and opens that.
#   kevsql_dask.py [--csv|--json] [--no-header] [--lenient] [--check] [--merge SQL] [--send]
#                  [--timing] [--deadline TASK=TIME]... [--period TASK=TIME]...
#                  --scheduler URL 'SELECT ...' TRACE.kev|DIR...
# (--deadline, --period: kevsql's, given to the extension on each trace's connection before it
# opens the trace, kev_timing(); checked here first by the same function)
# (--send: bytes even where the workers see the paths, to try that way on one machine;
# --timing: says on stderr how long the cluster's part took, from asking the workers what they
# see to the merged rows, apart from this client's own start: its imports and its connection)
# Exit status as kevsql's: 0 ok, 1 a row with --check or a trace that failed, 2 bad usage.
import argparse
import hashlib
import json
import os
import sqlite3
import sys
import time

META = ["trace", "board", "build", "boot_date"]


def traces_of(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".kev"))
        else:
            out.append(p)
    return out


# ---- on the workers -----------------------------------------------------------------------------

def sees(paths):
    """The sizes of the files this worker sees at paths (-1: none)."""
    return [os.path.getsize(p) if os.path.isfile(p) else -1 for p in paths]


def local_file(ref, name):
    """A path on this worker for ref: the path itself, or (bytes) a file written once, named
    name in a directory of its own (SQLite takes an extension's entry point from its name)."""
    if isinstance(ref, str):
        return ref
    import tempfile
    d = os.path.join(tempfile.gettempdir(), "kevsql-dask-%d" % os.getuid(),
                     hashlib.sha1(ref).hexdigest())
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, name)
    if not os.path.exists(path):
        tmp = path + ".%d" % os.getpid()
        with open(tmp, "wb") as f:
            f.write(ref)
        os.replace(tmp, path)
    return path


def run_one(name, trace_ref, so_ref, query, lenient, timing):
    """One trace on a worker: (column names, rows with the trace and its metadata first,
    error or None); the rows None when the query failed there. timing: (OPT, RULE) pairs
    for kev_timing."""
    so = local_file(so_ref, "kevsql.so")
    path = local_file(trace_ref, "trace.kev")
    db = sqlite3.connect(":memory:")
    meta = {"trace": name, "board": None, "build": None, "boot_date": None}
    try:
        db.enable_load_extension(True)
        db.load_extension(so)
        for opt, rule in timing:
            db.execute("SELECT kev_timing(?, ?)", (opt, rule))
        db.execute("SELECT kev_open(?, ?)", (path, "lenient" if lenient else "strict"))
        for key in META[1:]:
            row = db.execute("SELECT str_value FROM metadata WHERE name = ?", (key,)).fetchone()
            meta[key] = row[0] if row and row[0] else None
        cur = db.execute(query)
        cols = [d[0] for d in cur.description] if cur.description else []
        rows = cur.fetchall()
        err = None
        if lenient:
            dmg = db.execute("SELECT kev_damage()").fetchone()[0]
            if dmg:
                err = "damaged: %s; its rows cover the events before it" % dmg
    except sqlite3.Error as e:
        return None, None, str(e)
    finally:
        db.close()
    named = [c + "_" if c in META else c for c in cols]
    first = [meta[k] for k in META]
    return META + named, [first + list(r) for r in rows], err


def run_batch(names, trace_refs, so_ref, query, lenient, timing):
    """Several traces on a worker, one after the other: one pandas DataFrame of all their rows
    (one frame a batch: the client then takes a few frames, not one a trace), each trace's
    error or None, and the traces whose query failed."""
    import pandas as pd
    cols, rows, errs = None, [], []
    for n, r in zip(names, trace_refs):
        c, got, err = run_one(n, r, so_ref, query, lenient, timing)
        errs.append(err)
        if got is None:
            continue
        if cols is None:
            cols = c
        elif c != cols:
            errs[-1] = "its columns differ from the first trace's: %s" % ", ".join(c)
            continue
        rows += got
    df = pd.DataFrame(rows, columns=cols, dtype=object) if cols is not None else None
    return df, errs


# ---- output, as kevsql prints it ------------------------------------------------------------------

def text(v):
    """A value as SQLite's text of it (kevsql's table and CSV): a real with 15 digits, and a
    ".0" when it would read as an integer."""
    if v is None:
        return "NULL"
    if isinstance(v, float):
        s = "%.15g" % v
        return s if any(c in s for c in ".eninf") else s + ".0"
    return str(v)


def json_num(v):
    """A number as kevsql's JSON writes it: a real in the shorter of %.15g and %.17g that
    reads back the same."""
    if isinstance(v, float):
        s = "%.15g" % v
        s = s if float(s) == v else "%.17g" % v
        return s if any(c in s for c in ".eni") else s + ".0"
    return str(v)


def print_rows(cols, types, rows, fmt, header):
    out = sys.stdout
    if fmt == "json":
        out.write('{"columns":[' + ",".join(
            '{"name":%s,"type":%s}' % (json.dumps(c), json.dumps(t)) for c, t in zip(cols, types))
            + '],"rows":[')
        for i, r in enumerate(rows):
            vals = []
            for v in r:
                if v is None:
                    vals.append("null")
                elif isinstance(v, (int, float)) and not isinstance(v, bool):
                    vals.append(json_num(v))
                else:
                    vals.append(json.dumps(v, ensure_ascii=False))
            out.write((",\n[" if i else "\n[") + ",".join(vals) + "]")
        out.write("]}\n")
    elif fmt == "csv":
        def field(v):
            s = "" if v is None else text(v)
            return '"' + s.replace('"', '""') + '"' if any(c in s for c in ',"\n\r') else s
        if header:
            out.write(",".join(field(c) for c in cols) + "\n")
        for r in rows:
            out.write(",".join(field(v) for v in r) + "\n")
    else:
        cells = ([list(cols)] if header else []) + [[text(v) for v in r] for r in rows]
        numeric = [any(isinstance(r[i], (int, float)) for r in rows) for i in range(len(cols))]
        width = [max([len(c[i]) for c in cells] or [0]) for i in range(len(cols))]
        for k, c in enumerate(cells):
            right = lambda i: numeric[i] and not (header and k == 0)
            out.write("  ".join(c[i].rjust(width[i]) if right(i) else c[i].ljust(width[i])
                                for i in range(len(cols))) + "\n")


def sql_type(v):
    return {int: "integer", float: "real", str: "text", bytes: "blob"}.get(type(v), "null")


def main():
    ap = argparse.ArgumentParser(prog="kevsql --scheduler",
                                 description="kevsql's query over many traces on a Dask cluster")
    ap.add_argument("--csv", dest="fmt", action="store_const", const="csv")
    ap.add_argument("--json", dest="fmt", action="store_const", const="json")
    ap.add_argument("--no-header", dest="header", action="store_false")
    ap.add_argument("--lenient", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--merge")
    ap.add_argument("-j", type=int)
    ap.add_argument("--scheduler", required=True)
    ap.add_argument("--send", action="store_true",
                    help="send the traces and the extension to the workers even where they see them")
    ap.add_argument("--timing", action="store_true",
                    help="say how long the cluster's part took (submission to merged rows)")
    ap.add_argument("--deadline", action="append", default=[], metavar="TASK=TIME")
    ap.add_argument("--period", action="append", default=[], metavar="TASK=TIME")
    ap.add_argument("words", nargs="+")
    a = ap.parse_args()
    query = None
    paths = []
    for w in a.words:
        if query is None and not os.path.exists(w):
            query = w
        else:
            paths.append(w)
    if query is None or not paths:
        ap.error("a query and traces")
    traces = traces_of(paths)
    here = os.path.dirname(os.path.abspath(__file__))
    so = os.path.join(here, "kevsql.so")
    timing = [("deadline", r) for r in a.deadline] + [("period", r) for r in a.period]
    if timing:  # a bad rule said before the cluster is asked, by the extension's own parser
        db = sqlite3.connect(":memory:")
        db.enable_load_extension(True)
        db.load_extension(so)
        for opt, rule in timing:
            try:
                db.execute("SELECT kev_timing(?, ?)", (opt, rule))
            except sqlite3.Error as e:
                print("kevsql: %s" % e, file=sys.stderr)
                return 2
        db.close()
    from distributed import Client
    client = Client(a.scheduler)
    t0 = time.monotonic()
    # What every worker sees at the paths: the file by its path, else its bytes.
    files = [os.path.abspath(so)] + [os.path.abspath(t) for t in traces]
    sizes = [os.path.getsize(f) if os.path.isfile(f) else -1 for f in files]
    seen = client.run(sees, files)
    shared = [not a.send and all(s[i] == sizes[i] for s in seen.values()) for i in range(len(files))]

    def ref(i):
        if shared[i]:
            return files[i]
        with open(files[i], "rb") as f:
            return client.scatter(f.read(), broadcast=i == 0)
    so_ref = ref(0)
    # A task takes a batch of traces: one trace's query is a fraction of a second, near the
    # cost of a task's round trip through the scheduler. Four batches a worker thread keep the
    # workers busy to the end.
    nthreads = sum(client.nthreads().values()) or 1
    size = max(1, len(traces) // (4 * nthreads))
    batches = [list(range(k, min(k + size, len(traces)))) for k in range(0, len(traces), size)]
    futures = [client.submit(run_batch, [traces[k] for k in b], [ref(k + 1) for k in b], so_ref,
                             query, a.lenient, timing, pure=False) for b in batches]
    status = 0
    frames = []
    gathered = client.gather(futures)
    held = client.who_has(futures)   # which worker computed (holds) each trace's rows
    workers = {w for ws in held.values() for w in ws}
    print("kevsql: %d traces on %d workers of %s" % (len(traces), len(workers), a.scheduler),
          file=sys.stderr)
    errors = [e for df, errs in gathered for e in errs]
    for k, err in enumerate(errors):
        if err:
            print("kevsql: %s: %s" % (traces[k], err), file=sys.stderr)
            status = 1
    frames = [df for df, errs in gathered if df is not None]
    client.close()
    if not frames:
        return status
    import pandas as pd
    union = pd.concat(frames, ignore_index=True)
    cols = list(union.columns)
    rows = [tuple(None if (isinstance(v, float) and v != v) else v for v in r)
            for r in union.itertuples(index=False, name=None)]
    if a.merge:
        db = sqlite3.connect(":memory:")
        db.execute("CREATE TABLE result(%s)" % ", ".join('"%s"' % c.replace('"', '""') for c in cols))
        db.executemany("INSERT INTO result VALUES (%s)" % ", ".join("?" * len(cols)), rows)
        cur = db.execute(a.merge)
        cols = [d[0] for d in cur.description]
        rows = cur.fetchall()
    if a.timing:
        print("kevsql: the cluster's part took %.3f s" % (time.monotonic() - t0), file=sys.stderr)
    types = [next((sql_type(r[i]) for r in rows[:1]), "null") for i in range(len(cols))]
    print_rows(cols, types, rows, a.fmt or "table", a.header)
    if a.check and rows:
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
