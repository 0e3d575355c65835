#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the scripts DTrace users bring (the DTraceToolkit's entries and one-liners, the
Dynamic Tracing Guide's examples) as a user would on a board: live with `make dtrace
APPS=...`'s boot, then with build/host/dtrace -i over the same boot's capture, and prints
a verdict per entry and the counts. Not in `make test`: the scripts are not in this tree.

    git -C <mirror of estibi/DTraceToolkit> archive HEAD | tar -x -C /tmp/tk
    git -C <mirror of illumos-gate, or a fork of it> archive HEAD usr/src/cmd/dtrace/demo \\
        | tar -x -C /tmp/il
    make APPS="acq worker decide decidevic" all   # the image of the workload below
    test/d/toolbox/run-toolbox.py --toolkit /tmp/tk --guide /tmp/il/usr/src/cmd/dtrace/demo

Entries: each Toolkit tool (Bin/*: a .d file as it is; a shell or perl wrapper's
`dtrace -n '...'` program with its option variables at their defaults, or the program it
keeps in a shell variable, dtrace='...' then dtrace -n "$dtrace", as its own shell code sets
it when run with no options, or with the workload's first program as its command when it
wants one: dapptrace, dappprof, procsystime), each one-liner of
Docs/oneliners.txt, each .d file of the Guide's demo directory. The selection ("--list"
says why each other is left out): every probe description names a provider this system has
and matches probes here (the image's `dtrace -l`), as `dtrace -e` over the image says; the
Guide's examples that need a program's own pid probes, TCP/IP or kstat are left out too. An
entry that printed nothing live and whose clauses all wait for a program by a name the image
has none of (execname == "MozillaFirebird", "xterm", "date") is a SKIP after its run: its
output is that program's.
Arguments a script needs ($1, $$1) are the workload's (ARGS below); a script with
pid$target probes gets the target's ELF file (--elf: a.out is the first program it names).

The boot: QEMU_ICOUNT=exact, `dtrace -K -c appinit PROGRAM ;; appinit APPS ;; tracelogger -d1
[-p HZ] -f trace.kev` (make dtrace's, with stack samples at the script's profile rate),
$target the first of APPS. Live output: the board's dtrace lines less its own "dtrace: "
messages, named by stacksym; over the capture: dtrace -i's standard output.

Verdicts, by what a user sees: an entry passes when it compiles, both runs exit 0, both print
output of the script's own (not dtrace's messages, not the column heading alone) and neither
prints a dtrace error; then SAME (the outputs equal byte for byte), SHAPE (equal once every
number is masked: the same rows, other counts) or RUN (the rows differ). FAIL otherwise, with
why: the first error, a non-zero exit, or the side that printed nothing of its own (over the
capture with dtrace -i's note of what the capture lacks). SKIP: an entry this system cannot
apply, and why (the selection below); the counts say how many of each. An entry that watches
what happens between CPUs (SEVERAL_CPUS) runs on --smp-board (qemu-virt-a53, make BOARD=...
APPS=... all) when --board has one CPU, its verdict saying so; a SKIP, said, when that image
is not built.

The counts: per kind, then the Toolkit's tools and one-liners together and the Guide, each
over the runner's selection and over the issue's selection, the runner's less ISSUE_OUT's
entries (output that is not the script's own work on any system: the error error.d provokes,
woof's sound, dexplorer's archive, the Java and Python tools' VMs), so that both figures are
reproduced by one run. The board's dtrace traces around its run (-K), so the
capture holds its go and stop (DPROG events) and its timers' runs (DTIMER), and dtrace -i
replays that span: what still differs is what the capture does not carry (the verdicts'
details and docs/d-subset.md "The toolbox" count them)."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
# arguments of the scripts that take them, for the workload "acq worker decide" (pids: dtrace 1,
# appinit 2, the tracelogger 3, acq 4, worker 5, decide 6; decide spawns and kills decidevic
# five times, for the scripts of proc:::signal-send); pritime's thread is acq's whose priority
# its mutex's inheritance changes, 4 2
ARGS = {"sampleproc.d": ["100"], "lastwords.d": ["worker"], "sched_pritime.d": ["4", "2"],
        "profile_profpri.d": ["5"], "sched_whererun.d": ["worker"]}
KEEP = None        # --keep DIR
GUIDE_OUT = re.compile(r"^(ip_|tcp_|udp_|io_|struct_kstat|sdt_callout|user_)")
# Entries that watch what happens between CPUs: on a board of one CPU they print nothing, on
# any system; run on --smp-board instead (a SKIP, said, when it is not built).
SEVERAL_CPUS = {"sched_whosteal.d": "a CPU taking a thread queued on another's"}
# The issue's selection, the set the project's own measure counts: the runner's less the
# entries whose output is not the script's own work on any system, so that the rule (its own
# output both ways, no dtrace error) cannot count them anywhere: their figure is printed
# beside the runner's, reproducibly.
ISSUE_OUT = {
    "dtrace_error.d": "its output is the dtrace error it provokes (illumos's dtrace prints it "
                      "too)",
    "woof.d": "its output is a sound (system(\"audioplay ...\")), nothing printed",
    "dexplorer.d": "the runner's text is dexplorer's check that dtrace runs (BEGIN { "
                   "trace(pid); exit(0); }); its work is a tar archive of other tools' runs",
    "j_profile.d": "the Toolkit's Java tool: the stacks of a Java VM, which this system does "
                   "not run",
    "py_profile.d": "the Toolkit's Python tool: the stacks of a Python VM, which this system "
                    "does not run",
}


def sh(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, errors="replace", **kw)


def shell_var_program(text, command):
    """A shell wrapper whose program is a variable (dtrace='...' then dtrace -n "$dtrace"):
    the variable's value as the wrapper's own shell code leaves it, run with no options, or
    with the workload's first program as its command when it wants one (dapptrace: "{ -p PID |
    command }"); the code after the assignment (the run of dtrace) is not run. None when the
    wrapper has no such program."""
    m = re.search(r"(?m)^(\w+)='$", text)
    if not m or not re.search(r'dtrace[^\n]*-n\s*"\$%s"' % m.group(1), text):
        return None
    var = m.group(1)
    end = re.search(r"(?m)^'\s*$", text[m.end():])
    if not end:
        return None
    # the wrapper's code up to the end of its program, then the program printed
    code = text[:m.end() + end.end()] + '\nprintf "%%s" "$%s"\nexit 0\n' % var
    for args in ([], [command]):
        r = subprocess.run(["sh", "-c", code, "/nonexistent/" + var] + args, text=True,
                           capture_output=True, stdin=subprocess.DEVNULL, timeout=10,
                           errors="replace")
        if r.returncode == 0 and r.stdout.strip():
            return r.stdout + "\n"
    return None


def wrapper_program(text, command="acq"):
    """A shell or perl wrapper's program: the text of its dtrace -n '...', with '$var'
    interpolations at their defaults (0; "" for a name), or its program variable
    (shell_var_program); None when it has none."""
    m = re.search(r"dtrace[^\n']*?-[a-zA-Z]*n\s*'", text)
    if not m:
        return shell_var_program(text, command)
    out, j = [], m.end()
    while j < len(text):
        if text[j] == "'":
            mm = re.match(r"'(\$\w+|\"\$\w+\"|\$\{\w+\})'", text[j:])
            if not mm:
                break
            var = mm.group(1).strip('"${}')
            out.append("" if var in ("pname", "command") else "0")
            j += mm.end()
            continue
        out.append(text[j])
        j += 1
    body = "".join(out).replace("\\@", "@").replace("\\\\n", "\\n").replace("\\$", "$")
    return re.sub(r"\$FILTER\b", "", body) + "\n"


def entries(toolkit, guide, command):
    """(set, name, D text) of every candidate (command: the workload's first program, a
    wrapper's command when it wants one)."""
    out = []
    if toolkit:
        binp = os.path.join(toolkit, "Bin")
        for name in sorted(os.listdir(binp)):
            path = os.path.realpath(os.path.join(binp, name))
            try:
                text = open(path, errors="replace").read()
            except OSError:
                continue
            prog = text if name.endswith(".d") else wrapper_program(text, command)
            if prog is not None:
                out.append(("toolkit", name if name.endswith(".d") else name + ".d", prog))
        k = 0
        for line in open(os.path.join(toolkit, "Docs", "oneliners.txt"), errors="replace"):
            m = re.match(r"\s*dtrace\s+(-\w+\s+)*?-?(\w*)n\s+'(.*)'\s*$", line)
            if m:
                k += 1
                quiet = "q" in "".join(re.findall(r"-(\w+)", line.split("'")[0]))
                out.append(("oneliner", "oneliner%02d.d" % k,
                            ("#pragma D option quiet\n" if quiet else "") + m.group(3) + "\n"))
    if guide:
        for d in sorted(os.listdir(guide)):
            sub = os.path.join(guide, d)
            if os.path.isdir(sub):
                for f in sorted(os.listdir(sub)):
                    if f.endswith(".d"):
                        out.append(("guide", d + "_" + f,
                                    open(os.path.join(sub, f), errors="replace").read()))
    return out


def elf_args(img, target, text):
    """--elf for the target's program when the script has pid$target probes (docs/pid.md:
    a.out is the first program --elf names, as make dtrace names the first of APPS)"""
    if not re.search(r"\bpid(\$target|\d+)\s*:", text):
        return []
    return ["--elf", os.path.join(img[:-4], target + ".elf")]


def needs_cpp(text):
    return re.search(r"(?m)^\s*#\s*(include|define|if)", text) is not None


def programs(img):
    """The names a thread of the image's boot may have: its programs' (the image's directory
    of ELF files) and the kernel's (its idle and kernel threads)."""
    d = img[:-4]
    return {f[:-4] for f in os.listdir(d) if f.endswith(".elf")} | {"kernel"}


def foreign_program(img, text):
    """A program every clause of the entry waits for by name (execname == "X", a pr_fname
    compared with "X") that the image does not run, or None."""
    body = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    names = set(re.findall(r'(?:execname|pr_fname\))\s*==\s*"([^"]+)"', body))
    names |= set(re.findall(r'"([^"]+)"\s*==\s*(?:execname|stringof)', body))
    other = sorted(n for n in names if n not in programs(img))
    return other[0] if other and len(other) == len(names) else None


def selected(h, img, target, kind, name, path, text):
    """None when the entry is in the set, else why not."""
    if kind == "guide" and GUIDE_OUT.match(name):
        return "the Guide's TCP/IP, I/O, kstat, callout or user-program example"
    cpp, elf = (["-C"] if needs_cpp(text) else []), elf_args(img, target, text)
    argv = [h + "/dtrace", "-e"] + cpp + ["--kernel", img, "-s", path] + ARGS.get(name, [])
    if elf: # pid$target names the target's functions: as the run compiles it
        argv = [h + "/dcompile"] + cpp + ["--kernel", img, "-T", target] + elf + \
            ["-s", path, "-o", os.devnull] + ARGS.get(name, [])
    err = sh(argv).stderr
    if "does not match any probes" in err:
        return "probes not here: " + err.strip().splitlines()[0][-100:]
    body = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    for m in re.finditer(r"(?m)^\s*([a-zA-Z_]+)[\w$*]*:([\w*$.-]*):([\w*$.-]*):([\w*$.-]*)",
                         body):
        if "$" in m.group(0):
            continue
        desc = m.group(0).strip()
        if sh([h + "/dtrace", "--kernel", img, "-l", "-n", desc]).returncode != 0:
            return "probes not here: " + desc
    return None


def profile_rate(text):
    rates = re.findall(r"profile-(\w+)", text)
    m = re.search(r"(?m)^#define\s+RATE\s+(\d+)", text)
    hz = 0
    for r in rates:
        if r == "RATE" and m:
            r = m.group(1)
        mm = re.match(r"^(\d+)(hz|ms|msec|s|sec)?$", r)
        if mm:
            n, u = int(mm.group(1)), mm.group(2) or "hz"
            v = n if u == "hz" else 1000 // n if u in ("ms", "msec") else 1
            hz = max(hz, v)
    return min(hz, 5000)


ERR = re.compile(r"error|invalid|fault|failed|cannot|not supported|drops?( |$)", re.I)


HEADING = re.compile(r"^\s*CPU\s+ID\s+FUNCTION:NAME\s*$")


def own_output(text):
    """The lines a script printed itself: not blank, not dtrace's column heading alone."""
    return [l for l in text.splitlines() if l.strip() and not HEADING.match(l)]


def run_one(h, img, board, apps, work, name, path, text):
    target = apps.split()[0]
    cpp = ["-C"] if needs_cpp(text) else []
    args = ARGS.get(name, [])
    obj = os.path.join(work, "x.dobj")
    elf = elf_args(img, target, text)
    cc = sh([h + "/dcompile"] + cpp + ["--kernel", img, "-T", target] + elf +
            ["-s", path, "-o", obj] + args)
    if cc.returncode != 0:
        return "FAIL", (cc.stderr.strip().splitlines() or ["dcompile failed"])[0]
    hz = profile_rate(text)
    kev = os.path.join(work, "trace.kev")
    env = dict(os.environ, BOARD=board, QEMU_ICOUNT="exact", QEMU_TIMEOUT="300",
               QEMU_ARGS="dtrace -K -c appinit %s ;; appinit %s ;; tracelogger -d1 %s-f %s" %
               (obj, apps, "-p %d " % hz if hz else "", kev))
    boot = subprocess.run([ROOT + "/scripts/qemu-run.sh", img], env=env, cwd=work, text=True,
                          errors="replace", stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = [re.sub(r"^\d+/dtrace: ", "", l.rstrip("\r")) for l in boot.stdout.splitlines()
             if re.match(r"^\d+/dtrace: ", l)]
    # the board's messages (its stderr shares the console: one may follow a printf( )'s
    # text on its line)
    live_err = [l[l.index("dtrace: "):] for l in lines if "dtrace: " in l]
    live = "".join(l + "\n" for l in lines if not l.startswith("dtrace: "))
    live = sh([h + "/stacksym", "-k", img] +
              [os.path.join(img[:-4], f) for f in sorted(os.listdir(img[:-4]))
               if f.endswith(".elf")], input=live).stdout
    if boot.returncode != 0 or not os.path.exists(kev):
        return "FAIL", "the boot failed (status %d)%s" % (
            boot.returncode, ": " + live_err[0] if live_err else "")
    cap = sh([h + "/dtrace"] + cpp + ["-T", target] + elf + ["-i", kev, "-s", path] + args,
             cwd=work)
    cap_err = cap.stderr.splitlines()
    if KEEP:    # both sides' output and messages, for a look at a verdict
        for part, t in (("live.out", live), ("live.err", "\n".join(live_err)),
                        ("cap.out", cap.stdout), ("cap.err", cap.stderr)):
            with open(os.path.join(KEEP, name + "." + part), "w") as f:
                f.write(t)
    def errors(ls):   # (not "script NAME matched N probes", whatever NAME holds)
        return sorted(l for l in ls if ERR.search(l) and " matched " not in l)
    errs = errors(live_err), errors(cap_err)
    if cap.returncode != 0:
        return "FAIL", "dtrace -i exit %d: %s" % (cap.returncode, (cap_err or [""])[0])
    if errs[0] or errs[1]:
        return "FAIL", ("live: " + errs[0][0]) if errs[0] else ("over the capture: " + errs[1][0])
    if not own_output(live):
        prog = foreign_program(img, text)
        if prog:    # what it prints is that program's: not applicable here
            return "SKIP", "it watches a program this system does not run: %s" % prog
        return "FAIL", "nothing of its own printed live"
    if not own_output(cap.stdout):
        notes = [l for l in cap_err if "does not fire" in l or "not in this capture" in l]
        return "FAIL", "nothing of its own printed over the capture%s" % (
            ": " + notes[0] if notes else "")
    if live == cap.stdout:
        return "SAME", ""
    mask = lambda s: re.sub(r" +", " ", re.sub(r"@+", "@", re.sub(r"\d+", "N", s)))
    if mask(live) == mask(cap.stdout):
        return "SHAPE", ""
    return "RUN", "%d lines live, %d over the capture" % (live.count("\n"),
                                                            cap.stdout.count("\n"))


def board_cpus(board):
    """The CPUs a board's kernel starts (its board.mk's BOARD_MAX_CPUS, 1 without one)."""
    try:
        mk = open(os.path.join(ROOT, "boards", board, "board.mk")).read()
    except OSError:
        return 1
    m = re.search(r"(?m)^BOARD_MAX_CPUS\s*:?=\s*(\d+)", mk)
    return int(m.group(1)) if m else 1


def image_of(board, every):
    return os.path.join(ROOT, "build", board, "dtrace-%s.elf" % "-".join(every))


def where_to_run(a, every, name):
    """(board, image) to run the entry on, or (None, why not): an entry that watches several
    CPUs runs on --smp-board when --board has one."""
    if name not in SEVERAL_CPUS or board_cpus(a.board) > 1:
        return a.board, image_of(a.board, every)
    img = image_of(a.smp_board, every)
    why = "it watches %s: %s has one CPU" % (SEVERAL_CPUS[name], a.board)
    if board_cpus(a.smp_board) < 2 or not os.path.exists(img):
        return None, why + " (make BOARD=%s APPS=\"%s\" all runs it there)" % (
            a.smp_board, " ".join(every))
    return a.smp_board, img


def counts_line(label, c):
    n = sum(v for k, v in c.items() if k != "SKIP")
    ok = c.get("SAME", 0) + c.get("SHAPE", 0) + c.get("RUN", 0)
    return ("%s: %d of %d entries pass (%d same, %d same rows, %d other rows), %d failed; "
            "%d not applicable here (SKIP lines)" %
            (label, ok, n, c.get("SAME", 0), c.get("SHAPE", 0), c.get("RUN", 0),
             c.get("FAIL", 0), c.get("SKIP", 0)))


def print_counts(counts, issue):
    """Per kind, then the Toolkit's tools and one-liners together, the Guide, and the same
    over the issue's selection (ISSUE_OUT's entries left out)."""
    for kind in sorted(counts):
        print(counts_line(kind, counts[kind]))
    for label, kinds in (("the Toolkit (tools and one-liners)", ("toolkit", "oneliner")),
                         ("the Guide", ("guide",))):
        for sel, src in (("the runner's selection", counts), ("the issue's selection", issue)):
            c = {}
            for k in kinds:
                for v, n in src.get(k, {}).items():
                    c[v] = c.get(v, 0) + n
            if c:
                print(counts_line("%s, %s" % (label, sel), c))


def main():
    ap = argparse.ArgumentParser(description="Run the Toolkit's and the Guide's scripts live "
                                 "and over the same boot's capture (see the header).")
    ap.add_argument("--toolkit", help="a DTraceToolkit checkout (its Bin/ and Docs/)")
    ap.add_argument("--guide", help="illumos's usr/src/cmd/dtrace/demo")
    ap.add_argument("--board", default="mps2-an385")
    ap.add_argument("--smp-board", default="qemu-virt-a53",
                    help="the board with several CPUs the entries that watch them run on")
    ap.add_argument("--apps", default="acq worker decide",
                    help="the workload: the programs appinit starts")
    ap.add_argument("--extra", default="decidevic",
                    help="programs of the image appinit does not start (decide's victims)")
    ap.add_argument("--list", action="store_true", help="print the selection only")
    ap.add_argument("--only", help="a regex of entry names to run")
    ap.add_argument("--keep", help="a directory for each entry's outputs and messages")
    a = ap.parse_args()
    global KEEP
    KEEP = a.keep and os.path.abspath(a.keep)
    if KEEP:
        os.makedirs(KEEP, exist_ok=True)
    if not a.toolkit and not a.guide:
        ap.error("give --toolkit DIR, --guide DIR or both")
    h = os.path.join(ROOT, "build", "host")
    every = a.apps.split() + a.extra.split()
    img = image_of(a.board, every)
    if not os.path.exists(img):
        sys.exit("run-toolbox: %s: not built (make APPS=\"%s\" all)" % (img, " ".join(every)))
    counts, issue = {}, {}
    def count(kind, name, verdict):
        counts.setdefault(kind, {}).setdefault(verdict, 0)
        counts[kind][verdict] += 1
        if name not in ISSUE_OUT:
            issue.setdefault(kind, {}).setdefault(verdict, 0)
            issue[kind][verdict] += 1
    with tempfile.TemporaryDirectory() as work:
        for kind, name, text in entries(a.toolkit, a.guide, a.apps.split()[0]):
            if a.only and not re.search(a.only, name):
                continue
            path = os.path.join(work, name)
            with open(path, "w") as f:
                f.write(text)
            why = selected(h, img, a.apps.split()[0], kind, name, path, text)
            if a.list:
                out = " (not in the issue's selection: %s)" % ISSUE_OUT[name] \
                    if why is None and name in ISSUE_OUT else ""
                print("%s %s %s%s" % ("SELECT" if why is None else "SKIP(%s)" % why, kind,
                                      name, out))
                continue
            if why is not None:
                counts.setdefault(kind, {}).setdefault("SKIP", 0)
                counts[kind]["SKIP"] += 1
                print("SKIP %s %s (%s)" % (kind, name, why), flush=True)
                continue
            board, bimg = where_to_run(a, every, name)
            if board is None:
                verdict, detail = "SKIP", bimg
            else:
                verdict, detail = run_one(h, bimg, board, a.apps, work, name, path, text)
                if board != a.board:
                    detail = "on %s: it watches %s%s" % (board, SEVERAL_CPUS[name],
                                                         "; " + detail if detail else "")
            count(kind, name, verdict)
            print("%s %s %s%s" % (verdict, kind, name, " (" + detail + ")" if detail else ""),
                  flush=True)
    print_counts(counts, issue)
    return 0


if __name__ == "__main__":
    sys.exit(main())
