#!/usr/bin/env python3
"""Runs the pure-D part of the DTrace test suite (Sun's suite, as carried by
illumos and Apple) through our host dtrace and prints a verdict per test and
one figure: "illumos pure-D: N of M (P%)".

Not in `make test`: it needs the suite's files, which are not in this tree.
Get them, e.g. from Apple's published copy (illumos-gate is over the fetch
limit), and point --suite at the `tst/common` directory:

    git -C <mirror of apple-oss-distributions/dtrace> archive HEAD test/tst/common \
        | tar -x -C /tmp/suite
    test/d/illumos/run-illumos.py --suite /tmp/suite/test/tst/common

The selection ("pure D", the one behind docs/d-subset.md's conformance
figures): tst.*.d, err.*.d and drp.*.d files whose probes are only
BEGIN/END/ERROR and tick-*/profile-*, with no trigger program beside them
(<base>.exe or <base>.c), no `$target`/`$pid`, no kernel symbol (`sym: a
kernel we do not have), leaving out the Apple-only directories and tests
(mach*, json, addrperm, livedump, cpucycles, cpuinstrs, vcycles, vinstrs,
machtimestamp, mtons).

Judged as the suite's dtest.pl judges: tst/drp must exit 0 and err 1;
err.D_TAG.*.d runs with -xerrtags and the first stderr line must carry
[D_TAG]; drp.TAG.*.d runs with -xdroptags and stderr must carry [TAG]; a
<test>.out (stdout) or <test>.err (stderr) beside the test must match byte
for byte; tests under preprocessor/ run with -C; stdin is /dev/null and the
working directory is the test's own.  A timeout, a signal or an ASan/UBSan
report on stderr (with --dtrace naming a sanitized build) is a failure.
"""
import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))

APPLE_ONLY = re.compile(r"(^|/)(mach[^/]*|json)(/|$)|addrperm|livedump|cpucycles"
                        r"|cpuinstrs|vcycles|vinstrs|machc?timestamp|mtons")
NAME = re.compile(r"^(tst|err|drp)\.(.*)\.d$")
PURE_NAME = re.compile(r"^(BEGIN|END|ERROR|(tick|profile)-\S*)$")


def pure_probe(desc):
    """A description naming only the dtrace or profile provider's probes:
    its provider is dtrace or profile, or its last part is BEGIN, END,
    ERROR, tick-* or profile-*."""
    parts = desc.split(":")
    if len(parts) == 4 and parts[0] in ("dtrace", "profile"):
        return True
    last = [x for x in parts if x]
    return bool(last) and bool(PURE_NAME.match(last[-1]))


DECL_WORDS = ("struct", "union", "enum", "translator", "typedef", "inline",
              "provider", "int", "long", "char", "short", "unsigned",
              "signed", "void", "string", "self", "this", "uint", "const")


def strip_comments_and_strings(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
    text = re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)
    return text


def probe_descriptions(text):
    """The probe descriptions of every clause: the text at brace depth 0
    before a '{', less its predicate; declarations (ending in ';') and
    struct/translator bodies are not clauses."""
    probes, depth, head = [], 0, ""
    for ch in strip_comments_and_strings(text):
        if depth == 0:
            if ch == ";":
                head = ""
            elif ch == "{":
                words = head.split()
                if words and words[0] not in DECL_WORDS:
                    spec = head.split("/")[0]
                    probes += [p.strip() for p in spec.split(",") if p.strip()]
                head = ""
                depth = 1
            else:
                head += ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
    return probes


def select(suite):
    """(path, reason) for every candidate; reason None = selected."""
    out = []
    for d, _, files in sorted(os.walk(suite)):
        for f in sorted(files):
            m = NAME.match(f)
            if not m:
                continue
            path = os.path.join(d, f)
            rel = os.path.relpath(path, suite)
            base = path[:-2]
            with open(path, errors="replace") as fh:
                text = fh.read()
            if APPLE_ONLY.search(rel):
                reason = "Apple-only"
            elif os.path.exists(base + ".exe") or os.path.exists(base + ".c"):
                reason = "trigger program"
            elif "$target" in text or "$pid" in text:
                reason = "$target"
            elif "`" in strip_comments_and_strings(text):
                reason = "kernel symbol"
            else:
                bad = [p for p in probe_descriptions(text)
                       if not pure_probe(p)]
                reason = "probe " + bad[0] if bad else None
            out.append((rel, reason))
    return out


def run_one(dtrace, suite, rel, timeout):
    path = os.path.join(suite, rel)
    d, f = os.path.split(path)
    m = NAME.match(f)
    kind, rest = m.group(1), m.group(2)
    argv = [dtrace]
    tag = droptag = None
    if kind == "err" and re.match(r"D_[A-Z0-9_]+\.", rest):
        tag = rest.split(".")[0]
        argv.append("-xerrtags")
    if kind == "drp" and re.match(r"[A-Z0-9_]+\.", rest):
        droptag = rest.split(".")[0]
        argv.append("-xdroptags")
    if "preprocessor" in rel:
        argv.append("-C")
    argv += ["-s", f]
    try:
        r = subprocess.run(argv, cwd=d, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, "timed out after %ds" % timeout
    if r.returncode < 0:
        return False, "died from signal %d" % -r.returncode
    err = r.stderr.decode(errors="replace")
    if "AddressSanitizer" in err or "runtime error:" in err:
        return False, "sanitizer report"      # an ASan/UBSan build's finding
    want = 1 if kind == "err" else 0
    if r.returncode != want:
        first = r.stderr.decode(errors="replace").strip().split("\n")[0]
        return False, "returned %d instead of %d: %s" % (r.returncode, want, first)
    if os.path.exists(path + ".out"):
        with open(path + ".out", "rb") as fh:
            if fh.read() != r.stdout:
                return False, "stdout mismatch"
    if os.path.exists(path + ".err"):
        with open(path + ".err", "rb") as fh:
            if fh.read() != r.stderr:
                return False, "stderr mismatch"
    if tag:
        first = err.split("\n")[0]
        if "[%s]" % tag not in first:
            return False, "errtag mismatch: " + first
    if droptag and ("[%s] " % droptag) not in err:
        return False, "droptag mismatch"
    return True, ""


def main():
    ap = argparse.ArgumentParser(
        description="Run the pure-D tests of DTrace's test suite through build/host/dtrace "
                    "and print 'illumos pure-D: N of M (P%)' (see the header).")
    ap.add_argument("--suite", required=True,
                    help="the suite's tst/common directory")
    ap.add_argument("--dtrace", default=os.path.join(ROOT, "build/host/dtrace"))
    ap.add_argument("--timeout", type=int, default=30,
                    help="seconds a test may take (default 30)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--list", action="store_true",
                    help="print the selection (and why others are left out)")
    a = ap.parse_args()
    if not os.path.isdir(a.suite):
        sys.exit("run-illumos: %s: not a directory" % a.suite)
    if not os.access(a.dtrace, os.X_OK):
        sys.exit("run-illumos: %s: not built (make tools)" % a.dtrace)
    cands = select(a.suite)
    chosen = [rel for rel, why in cands if why is None]
    if a.list:
        for rel, why in cands:
            print("%s %s" % ("SELECT" if why is None else "SKIP(" + why + ")", rel))
        print("selected %d of %d" % (len(chosen), len(cands)))
        return 0
    with ThreadPoolExecutor(a.jobs) as ex:
        results = list(ex.map(lambda rel: run_one(a.dtrace, a.suite, rel,
                                                  a.timeout), chosen))
    passed = 0
    for rel, (ok, why) in zip(chosen, results):
        passed += ok
        print("%s %s%s" % ("PASS" if ok else "FAIL", rel,
                           "" if ok else " (" + why + ")"))
    n = len(chosen)
    print("illumos pure-D: %d of %d (%.1f%%)" % (passed, n,
                                                 100.0 * passed / n if n else 0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
