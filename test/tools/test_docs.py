#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The docs' sizes and the history they must not hold (docs/README.md, "How the pages are kept").

Checks, as TAP lines, from the tree it sits in:
  - every page in docs/ and the README is at most 6,000 words (wc -w's count), but the pages in
    LONG, not rewritten yet; the pages in LIMITS at most their own limit;
  - the pages in HELD have no line over 200 characters outside code blocks, where a table row
    may be longer only if each of its cells is at most 100 characters;
  - no issue number, round or working branch in any page but those in DIARY, nor anywhere
    outside docs/ (code, comments, scripts, make files, tests, log strings): a rule states its
    reason, and history is git's;
  - every path of the tree the pages in HELD name in backticks exists;
  - docs/README.md names every page in docs/;
  - every ```sh block of every page runs as written: the test runs it (bash -e, pipefail) in a
    scratch directory, also its HOME, holding a small capture, trace.kev (kevgen's), a directory
    of captures, traces/, an empty ~/.debug, and `build` (this tree's build/, whose host tools
    are on PATH), or the line just
    before the block says why not, as `<!-- not run by the docs test: REASON -->` (a QEMU boot
    of minutes, a board on a desk, a command another test runs);
  - every ```c block marked `<!-- compiled by the docs test: a program's source file -->`
    compiles as a program's file does (the programs' include path and warnings, -Werror; the
    host's cc, syntax only): a snippet that lacks a header or names a missing macro fails.
HELD is every page; LONG and DIARY stay empty unless a page is being rewritten (then it is named
there, for as long as that takes).
usage: test/tools/test_docs.py [ROOT [HOSTDIR]]  (default: the tree this file is in, and its
       build/host; the sh blocks need HOSTDIR's tools: make test and make check-host build them)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

MAX_WORDS = 6000
LIMITS = {"docs/smp.md": 5000, "docs/PERFORMANCE.md": 5000}
# Pages still over MAX_WORDS, not rewritten yet (none today).
LONG = set()
# Every page: its lines and the paths it names are checked too (ROOT, when given, is this tree).
HELD = ["README.md"] + sorted(os.path.join("docs", f) for f in os.listdir(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs")) if f.endswith(".md"))
# Pages that still tell their history: others are rewriting them.
DIARY = set()
MAX_LINE = 200
MAX_CELL = 100

# An issue number, an ordinal round, a working branch (s, t or h, a dash, a lower-case name) or
# a helper's clone (h, two digits, maybe a letter). Built from parts so that this file does not
# match.
HISTORY = re.compile("|".join([
    r"[Ii]ssues? #?[0-9]+",
    r"(?<!every )\b(second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    + r"[0-9]+th) round\b",
    r"(^|[^A-Za-z0-9_\\/.-])[sth]" + r"-[a-z][a-z0-9]+\b",
    r"\bh" + r"[0-9]{2}[a-z]?\b",
]))

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))
os.chdir(root)
n = 0
failed = 0


def ok(cond, what, detail=""):
    global n, failed
    n += 1
    if not cond:
        failed += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
    for line in detail.splitlines()[:20]:
        print("# " + line)


def words(path):
    with open(path, encoding="utf-8") as f:
        return len(f.read().split())


def long_lines(path):
    """Lines over MAX_LINE outside fenced code, and table rows whose cells are not all short."""
    bad = []
    fenced = False
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if fenced or len(line) <= MAX_LINE:
                continue
            if line.lstrip().startswith("|"):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if all(len(c) <= MAX_CELL for c in cells):
                    continue
            bad.append("%s:%d: %d characters" % (path, no, len(line)))
    return bad


def history(paths):
    bad = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                for no, line in enumerate(f, 1):
                    m = HISTORY.search(line)
                    if m:
                        bad.append("%s:%d: %s" % (path, no, line.strip()[:150]))
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
    return bad


pages = sorted(["README.md"] + ["docs/" + p for p in os.listdir("docs") if p.endswith(".md")])
for page in pages:
    if page in LONG:
        continue
    limit = LIMITS.get(page, MAX_WORDS)
    w = words(page)
    ok(w <= limit, "%s: %d words (at most %d)" % (page, w, limit))
for page in sorted(LONG):
    ok(os.path.exists(page), "%s: still listed as long, and exists (%d words)" %
       (page, words(page) if os.path.exists(page) else 0))

for page in HELD:
    bad = long_lines(page)
    ok(not bad, "%s: no line over %d characters outside code and short-celled tables" %
       (page, MAX_LINE), "\n".join(bad))

bad = history([p for p in pages if p not in DIARY])
ok(not bad, "the pages%s name no issue, round or working branch"
   % (" (but %s)" % ", ".join(sorted(DIARY)) if DIARY else ""), "\n".join(bad))

tracked = subprocess.run(["git", "ls-files", "-z"], capture_output=True, check=True).stdout
files = [p for p in tracked.decode().split("\0")
         if p and not p.startswith("docs/") and p != "README.md"]
bad = history(files)
ok(not bad, "code, comments, scripts and tests (%d files) name no issue, round or working branch"
   % len(files), "\n".join(bad))

# Every file or directory of the tree a rewritten page names in backticks exists: a page that
# points at a renamed script or a moved header says so here (names with <...>, * or $ are
# patterns, and build/ is made by the build).
TREE_PATH = re.compile(r"`((?:kernel|trace|tracelogger|tools|test|scripts|user|boards|docs|"
                       r"ldscripts)/[^`\s<>*$]*)`")
missing = []
for page in HELD:
    with open(page, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            for m in TREE_PATH.finditer(line):
                path = m.group(1).split(":")[0].rstrip(".,;)")
                if not os.path.exists(path):
                    missing.append("%s:%d: %s" % (page, no, path))
ok(not missing, "every tree path the rewritten pages name exists", "\n".join(missing))

with open("docs/README.md", encoding="utf-8") as f:
    index = f.read()
missing = [p for p in pages if p.startswith("docs/") and p != "docs/README.md"
           and os.path.basename(p) not in index]
ok(not missing, "docs/README.md names every page in docs/", "\n".join(missing))

# ---- every sh block runs as written, or says why not -------------------------------------------
NOT_RUN = re.compile(r"^<!-- not run by the docs test: (\S.*) -->$")
BLOCK_TIMEOUT = 60
# A block that writes programs into the tree and boots them (docs/applications.md's example of
# two programs): run from the top of the tree, the programs it names renamed to fresh names
# (whole words) so that a user's own directories are never touched, and removed afterwards;
# its capture goes to the scratch directory. It builds and boots: a longer limit.
IN_TREE = re.compile(r"^<!-- run by the docs test in the tree, its programs under fresh names: "
                     r"([a-z][a-z0-9_ ]*) -->$")
IN_TREE_TIMEOUT = 480


def sh_blocks(path):
    """(line of the fence, the lines of the block, the not-run reason or None) for each ```sh."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```sh":
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith("```"):
                j += 1
            m = NOT_RUN.match(lines[i - 1].strip()) if i else None
            t = IN_TREE.match(lines[i - 1].strip()) if i else None
            body = lines[i + 1:j]
            if t:
                body = ("IN_TREE", t.group(1).split(), body)
            yield i + 1, body, m.group(1) if m else None
            i = j
        i += 1


def scratch_dir(host):
    """A directory like the one the docs' commands assume: trace.kev, traces/, build/."""
    d = tempfile.mkdtemp(prefix="docs-cmds.")
    os.symlink(os.path.join(root, "build"), os.path.join(d, "build"))
    os.mkdir(os.path.join(d, "traces"))
    os.mkdir(os.path.join(d, ".debug"))     # ~/.debug, a build-id cache (empty: HOME is d)
    gens = [("trace.kev", ["-n", "3000"]), ("traces/a.kev", ["-n", "2000", "-s", "2"]),
            ("traces/b.kev", ["-e", "-n", "2000", "-s", "3"])]
    for name, args in gens:
        subprocess.run([os.path.join(host, "kevgen")] + args + ["-o", os.path.join(d, name)],
                       check=True, stdout=subprocess.DEVNULL)
    return d


host = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join("build", "host"))
blocks = [(page, line, body, why) for page in HELD for line, body, why in sh_blocks(page)]
to_run = [b for b in blocks if b[3] is None]
if to_run and not os.path.exists(os.path.join(host, "kevgen")):
    ok(False, "the host tools the docs' commands run are built (%s/kevgen)" % host)
    to_run = []
scratch = scratch_dir(host) if to_run else None
env = dict(os.environ, PATH=host + os.pathsep + os.environ.get("PATH", ""),
           HOME=scratch or "/nonexistent", PAGER="cat", LC_ALL="C")
for page, line, body, why in to_run:
    cwd, limit, fresh, benv = scratch, BLOCK_TIMEOUT, {}, env
    if isinstance(body, tuple):
        _, names, body = body
        fresh = {w: "d%s%d" % (w[:7], os.getpid()) for w in names}
        words = re.compile(r"\b(%s)\b" % "|".join(map(re.escape, names)))
        body = [words.sub(lambda m: fresh[m.group(1)], b) for b in body]
        cwd, limit = root, IN_TREE_TIMEOUT
        benv = dict(env, TRACE_FILE=os.path.join(scratch, "in-tree.kev"))
    script = "set -e -o pipefail\n" + "\n".join(body) + "\n"
    try:
        r = subprocess.run(["bash", "-c", script], cwd=cwd, env=benv, capture_output=True,
                           text=True, timeout=limit, stdin=subprocess.DEVNULL)
        good, detail = r.returncode == 0, "exit %d\n%s%s" % (r.returncode, r.stdout[-1500:],
                                                             r.stderr[-1500:])
    except subprocess.TimeoutExpired:
        good, detail = False, "not done within %d s" % limit
    finally:
        for name in fresh.values():
            shutil.rmtree(os.path.join(root, "user", "apps", name), ignore_errors=True)
    ok(good, "%s:%d: its sh block runs as written%s" %
       (page, line, " (in the tree, as %s)" % " ".join(fresh.values()) if fresh else ""),
       "" if good else detail)
if scratch:
    shutil.rmtree(scratch, ignore_errors=True)
ok(all(why.strip() for _, _, _, why in blocks if why is not None),
   "%d sh blocks run, %d marked not run, each with its reason" %
   (len(to_run), len(blocks) - len(to_run)))

# ---- marked C blocks compile ---------------------------------------------------------------------
C_MARK = "<!-- compiled by the docs test: a program's source file -->"
C_FLAGS = ["-fsyntax-only", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-Wstrict-prototypes",
           "-Wmissing-prototypes", "-Wundef", "-Iuser/include", "-Ikernel/include",
           "-Itrace/include", "-Iuser/arch/armv7m/include"]


def c_blocks(path):
    """(line of the fence, the block's text) for each ```c block marked to be compiled."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        if line.strip() == "```c" and i and lines[i - 1].strip() == C_MARK:
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith("```"):
                j += 1
            yield i + 1, "\n".join(lines[i + 1:j]) + "\n"


compiled = 0
for page in HELD:
    for line, text in c_blocks(page):
        compiled += 1
        r = subprocess.run(["cc", *C_FLAGS, "-x", "c", "-"], input=text, capture_output=True,
                           text=True)
        ok(r.returncode == 0, "%s:%d: its C block compiles as a program's file" % (page, line),
           r.stderr[-1500:])
ok(compiled > 0, "%d C blocks marked to be compiled" % compiled)

print("1..%d" % n)
sys.exit(1 if failed else 0)
