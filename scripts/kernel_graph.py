#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Which kernel files call which: a definition/call scan of the kernel's C (a ctags-like pass,
# no compiler), the file-to-file arrows it gives, the cycles among them and how the arrows
# sit on the layers docs/ARCHITECTURE.md draws. test/tools/test_kernel_layers.py runs it.
#
# A file defines the functions and function-like macros it declares with a body at file
# scope; it refers to every defined name its bodies (functions, macros, initialisers) use,
# called or taken as a value. The arrow A -> B means A refers to a name B defines (a name
# several files define, as each architecture's arch_*, points at each of them; a file's own
# static names shadow the others') or A includes B. Arch files are scanned one architecture
# at a time: the kernel of a board holds one.
#
# usage: kernel_graph.py [--root DIR] cycles [--includes]    the cycles of all arches' files
#        kernel_graph.py [--root DIR] cycles PAGE            each arch's call cycles, its upcalls
#                                                            (PAGE's drawing) aside
#        kernel_graph.py [--root DIR] arrows [--includes]    every arrow "A -> B (names)"
#        kernel_graph.py [--root DIR] layers PAGE            the arrows against PAGE's drawing
import os
import re
import sys
from collections import defaultdict

ARCHES = ("armv7m", "aarch64", "x86")
KEYWORDS = {
    "if", "for", "while", "switch", "return", "sizeof", "do", "else", "case", "goto",
    "__attribute__", "__asm__", "asm", "__volatile__", "volatile", "_Static_assert",
    "__builtin_expect", "_Alignof", "__typeof__", "typeof", "defined", "__has_include",
    "_Generic", "alignof", "offsetof",
}
IDENT = re.compile(r"[A-Za-z_]\w*")


def strip(text):
    """The text without comments, strings and character constants (same line breaks)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j) or " ")
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def split_directives(text):
    """(code with directives blanked, [directive lines joined over continuations])."""
    code, directives = [], []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("#"):
            full = line
            k = i
            while full.endswith("\\") and k + 1 < len(lines):
                k += 1
                full = full[:-1] + " " + lines[k]
            directives.append(full.strip())
            code.extend([""] * (k - i + 1))
            i = k + 1
        else:
            code.append(line)
            i += 1
    return "\n".join(code), directives


class Source:
    """One file's definitions, the names its bodies use, and its includes."""

    def __init__(self, path, rel):
        self.rel = rel
        text = strip(open(path, encoding="utf-8", errors="replace").read())
        code, directives = split_directives(text)
        self.includes = []
        self.defs = {}       # name -> True when static (file-local)
        self.decls = set()   # names declared at file scope with no body (prototypes)
        self.uses = set()
        for d in directives:
            m = re.match(r"#\s*include\s*[<\"]([^>\"]+)[>\"]", d)
            if m:
                self.includes.append(m.group(1))
                continue
            m = re.match(r"#\s*define\s+([A-Za-z_]\w*)(\(?)(.*)", d)
            if m:
                if m.group(2):     # a function-like macro: a definition with a body
                    self.defs[m.group(1)] = False
                self.uses.update(IDENT.findall(m.group(3)))
        self._scan(code)

    def _scan(self, code):
        depth, i, n = 0, 0, len(code)
        head = []            # the file-scope text since the last ';' or '}' at depth 0
        while i < n:
            c = code[i]
            if c == "{":
                if depth == 0:
                    self._definition("".join(head))
                depth += 1
                head = []
            elif c == "}":
                depth -= 1
                if depth == 0:
                    head = []
            elif depth == 0:
                if c == ";":
                    self._declaration("".join(head))
                    head = []
                else:
                    head.append(c)
            if depth > 0 and (c.isalpha() or c == "_"):
                m = IDENT.match(code, i)
                self.uses.add(m.group(0))
                i = m.end()
                continue
            i += 1

    def _definition(self, head):
        # "static inline T name(args)" before a body: a function. Anything else with a brace at
        # file scope (a struct, an initialiser) is scanned for names only.
        m = re.search(r"([A-Za-z_]\w*)\s*\(([^()]|\([^()]*\))*\)\s*(__attribute__\s*\(\(.*\)\)\s*)*$",
                      head.strip(), re.S)
        if m and "=" not in head and m.group(1) not in KEYWORDS:
            words = IDENT.findall(head[: head.rfind(m.group(1))])
            if not {"struct", "union", "enum"} & set(words[-1:]):
                self.defs[m.group(1)] = "static" in words
                return
        self.uses.update(self._initialiser_uses(head))

    def _declaration(self, head):
        # "T name(args) __attribute__((...));" at file scope declares name; anything else with
        # a ';' there (a variable, an initialiser) is scanned for the names it points at.
        m = re.search(r"([A-Za-z_]\w*)\s*\(([^()]|\([^()]*\))*\)\s*(__attribute__\s*\(\(.*\)\)\s*)*$",
                      head.strip(), re.S)
        if m and "=" not in head and m.group(1) not in KEYWORDS:
            self.decls.add(m.group(1))
            return
        self.uses.update(self._initialiser_uses(head))

    @staticmethod
    def _initialiser_uses(head):
        # a file-scope initialiser names what it points at: "... = { f, g }" or "= f"
        k = head.find("=")
        return set(IDENT.findall(head[k + 1:])) if k >= 0 else set()


def kernel_files(root, arch):
    """The files of one architecture's kernel, relative to root."""
    files = []
    for d, exts in (("kernel", (".c",)), ("kernel/include/kernel", (".h",)),
                    ("kernel/include/uapi", (".h",)),
                    ("kernel/arch/" + arch, (".c",)), ("kernel/arch/" + arch + "/include", (".h",))):
        p = os.path.join(root, d)
        for f in sorted(os.listdir(p)):
            if f.endswith(exts):
                files.append(d + "/" + f)
    return files


def include_target(inc, rel, arch, names):
    for cand in ("kernel/include/" + inc, "kernel/arch/%s/include/%s" % (arch, inc),
                 os.path.normpath(os.path.join(os.path.dirname(rel), inc))):
        if cand in names:
            return cand
    return None


def graph(root, arch, with_includes):
    """{src: {dst: set(names)}}: the arrows of one architecture's kernel."""
    rels = kernel_files(root, arch)
    srcs = {r: Source(os.path.join(root, r), r) for r in rels}
    public = defaultdict(set)
    for r, s in srcs.items():
        for name, static in s.defs.items():
            if not static or r.endswith(".h"):
                public[name].add(r)
    arrows = defaultdict(lambda: defaultdict(set))
    for r, s in srcs.items():
        for name in s.uses:
            if name in s.defs:
                continue
            for dst in public.get(name, ()):
                if dst != r:
                    arrows[r][dst].add(name)
        if with_includes:
            for inc in s.includes:
                dst = include_target(inc, r, arch, srcs)
                if dst and dst != r:
                    arrows[r][dst].add("#include")
    return arrows


def all_arrows(root, with_includes):
    """The union over the architectures (an arch file is named by its path)."""
    arrows = defaultdict(lambda: defaultdict(set))
    for arch in ARCHES:
        for a, outs in graph(root, arch, with_includes).items():
            for b, names in outs.items():
                arrows[a][b] |= names
    return arrows


def sccs(arrows):
    """Strongly connected components with more than one file, largest first (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    nodes = set(arrows) | {b for outs in arrows.values() for b in outs}
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in arrows.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sorted(out, key=lambda c: (-len(c), c))


# ---- the drawing ---------------------------------------------------------------------------------
# docs/ARCHITECTURE.md's picture of the layers, read as data. Its fenced block after the marker
# "<!-- kernel layers" is rows of boxes: a line starting "+" begins a row, and the "|"
# of the row's first line split it into boxes side by side; a box's first word is its name, the others
# its files (file_name below: "sched" for sched.c and sched.h, "arch/*/include/*" the
# architectures' headers; "*" any letters but "/"; a file two patterns name is the box's whose
# pattern has more letters). Rows run from the top layer
# down. Three kinds of line draw the gates, the only arrows not pointing down or within a box:
#   "-- a.h b.h -->"   from the box on the left into the one on the right, through those headers
#   "<-- a.h --"       from the box on the right into the one on the left
#   "^ ... a.h"        from this row up to any row above, through that header
# A header of a gate names its names: an arrow through the gate refers only to functions and
# macros that header declares or defines (and includes the header itself).


class Layers:
    def __init__(self, page):
        text = open(page, encoding="utf-8").read()
        k = text.find("<!-- kernel layers")
        if k < 0:
            raise SystemExit("%s: no '<!-- kernel layers ... -->' drawing" % page)
        block = text[k:].split("```", 2)[1].split("\n")[1:]
        self.boxes = []        # (row, box index, name, [patterns])
        self.gates = []        # (from box name or "*", to box name or "above", [headers])
        row, cols = -1, []
        for line in block:
            if line.lstrip().startswith("+"):
                row += 1
                cols = []
                continue
            if row < 0 or not line.strip():
                continue
            if not cols:       # the row's first line: its "|" split the boxes
                cols = [m.start() for m in re.finditer(r"\|", line)]
            if "-->" in line or "<--" in line:
                self._gate(row, line)
                continue
            up = re.search(r"\^\s", line)
            if up:
                line = line[:up.start()] + " " * (len(line) - up.start() - 1) + "|"
            for i in range(len(cols) - 1):
                cell = line[cols[i] + 1: cols[i + 1]].strip(" |")
                words = cell.split()
                if not words:
                    continue
                box = [b for b in self.boxes if b[0] == row and b[1] == i]
                if box:
                    box[0][3].extend(words)
                else:
                    self.boxes.append((row, i, words[0], words[1:]))
            if up:
                self._gate(row, up.string)

    def _gate(self, row, line):
        heads = re.findall(r"[\w/]+\.h", line)
        here = [b for b in self.boxes if b[0] == row]
        if "-->" in line:
            self.gates.append((here[0][2], here[-1][2], heads))
        elif "<--" in line:
            self.gates.append((here[-1][2], here[0][2], heads))
        else:
            self.gates.append((here[0][2], "above", heads))

    def box_of(self, rel):
        """The boxes whose patterns name kernel file rel (one, in a sound drawing)."""
        name = file_name(rel)
        hits = []           # (how specific the pattern is: its letters, the box)
        for b in self.boxes:
            for pat in b[3]:
                glob = re.escape(pat).replace("\\*", "[^/]*")
                whole = name if "/" in pat else name.replace("kernel/", "", 1)
                if re.fullmatch(glob, whole):
                    hits.append((len(pat.replace("*", "")), b))
        best = max((h[0] for h in hits), default=0)
        return [b for n, b in hits if n == best]


def file_name(rel):
    """How the drawing names a kernel file: kernel/sched.c and kernel/include/kernel/sched.h
    are "sched" (kernel/...: "kernel/sched"), the ABI's headers "uapi/kcall", an architecture's
    files "arch/aarch64/cpu" and "arch/aarch64/include/a64"."""
    r = rel[len("kernel/"):].rsplit(".", 1)[0]
    if r.startswith("include/"):
        r = r[len("include/"):]
    return r if "/" in r else "kernel/" + r


def gate_names(root, heads):
    names = set()
    for h in heads:
        p = os.path.join(root, "kernel/include/kernel", h)
        if not os.path.exists(p):
            raise SystemExit("a gate names %s, which kernel/include/kernel does not hold" % h)
        s = Source(p, h)
        names |= set(s.defs) | s.decls
    return names


def check_layers(root, page, lay=None):
    """Every arrow against the drawing (page's, or lay): the layers, the wrong arrows' lines,
    the count of arrows and of wrong ones."""
    lay = lay or Layers(page)
    bad, nfiles, seen, wrong = [], set(), set(), set()
    gates = [(f, t, hs, gate_names(root, hs)) for f, t, hs in lay.gates]
    for arch in ARCHES:
        arrows = graph(root, arch, True)
        files = set(kernel_files(root, arch))
        for r in sorted(files):
            hits = lay.box_of(r)
            if len(hits) != 1 and r not in nfiles:
                bad.append("%s: in %s boxes of the drawing (%s), not one" %
                           (r, len(hits), " ".join(h[2] for h in hits)))
            nfiles.add(r)
        for a in sorted(arrows):
            for b in sorted(arrows[a]):
                ba, bb = lay.box_of(a), lay.box_of(b)
                if len(ba) != 1 or len(bb) != 1:
                    continue
                ba, bb = ba[0], bb[0]
                seen.add((a, b))
                why = arrow_wrong(a, b, arrows[a][b], ba, bb, gates)
                if why:
                    wrong.add((a, b))
                    bad.append("%s -> %s (%s): %s" % (a, b, " ".join(sorted(arrows[a][b])), why))
    return lay, sorted(set(bad)), len(seen), len(wrong)


def call_graph_without_upcalls(root, arch, lay):
    """One architecture's arrows of calls (no includes), less those going up from a row
    through an upcall gate (the arch's: a contract, drawn as such, not a cycle of layers)."""
    arrows = graph(root, arch, False)
    up = {g[0] for g in lay.gates if g[1] == "above"}
    out = defaultdict(lambda: defaultdict(set))
    for a, outs in arrows.items():
        ba = lay.box_of(a)
        for b, names in outs.items():
            bb = lay.box_of(b)
            if ba and bb and ba[0][2] in up and bb[0][0] < ba[0][0]:
                continue
            out[a][b] = names
    return out


def kmax_ifs(path):
    """The lines of path that are "#if"/"#elif" naming KMAX_CPUS, each with where it stands:
    "file" (file scope), "function" (in a function's body) or "type" (in a struct, union or
    enum, or an initialiser)."""
    found, stack, prev = [], [], ""
    text = strip(open(path, encoding="utf-8", errors="replace").read())
    for no, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("#"):
            if re.match(r"\s*#\s*(if|elif)\b.*\bKMAX_CPUS\b", line):
                where = "file" if not stack else "function" if "function" in stack else "type"
                found.append((no, where))
            continue
        for k, c in enumerate(line):
            if c == "{":
                before = (prev + line[:k]).rstrip()
                fn = not stack and re.search(r"\)\s*(__attribute__\s*\(\(.*\)\))?$", before)
                stack.append("function" if fn or (stack and stack[-1] == "function") else "type")
            elif c == "}" and stack:
                stack.pop()
        if line.strip():
            prev = line
    return found


def arrow_wrong(a, b, names, ba, bb, gates):
    """Why the arrow a -> b (refers to names, or #include) breaks the drawing, or None."""
    if ba == bb or ba[0] < bb[0]:
        return None
    for f, t, heads, gnames in gates:
        through = all(n in gnames or (n == "#include" and os.path.basename(b) in heads)
                      for n in names)
        if f == ba[2] and (t == bb[2] or (t == "above" and bb[0] < ba[0])) and through:
            return None
    if ba[0] == bb[0]:
        return "from %s across to %s, not through a gate" % (ba[2], bb[2])
    return "up from %s to %s, not through a gate" % (ba[2], bb[2])


def main(argv):
    root = "."
    if argv[:1] == ["--root"]:
        root, argv = argv[1], argv[2:]
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__ if __doc__ else open(__file__).read().split("import os")[0])
        return 0 if argv else 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "cycles":
        if rest and rest[0] != "--includes":
            lay = Layers(rest[0])
            for arch in ARCHES:
                for comp in sccs(call_graph_without_upcalls(root, arch, lay)):
                    print("%s %d: %s" % (arch, len(comp), " ".join(comp)))
            return 0
        for comp in sccs(all_arrows(root, "--includes" in rest)):
            print("%d: %s" % (len(comp), " ".join(comp)))
        return 0
    if cmd == "arrows":
        arrows = all_arrows(root, "--includes" in rest)
        for a in sorted(arrows):
            for b in sorted(arrows[a]):
                print("%s -> %s (%s)" % (a, b, " ".join(sorted(arrows[a][b]))))
        return 0
    if cmd == "layers" and rest:
        lay, bad, narrows, up = check_layers(root, rest[0])
        for line in bad:
            print("wrong: " + line)
        print("arrows %d, against the drawing %d" % (narrows, up))
        return 1 if bad else 0
    print("kernel_graph.py: unknown command %r (cycles, arrows, layers)" % cmd, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
