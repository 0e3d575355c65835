# SPDX-License-Identifier: MIT
# gdb's side of the fbt oracle (test/qemu/test_fbt_gdb.sh), run by gdb-multiarch against QEMU's
# gdbstub: a breakpoint on each function's first instruction counts its calls while the D
# program's fbt probes are placed (from kfbt_enable's return to kfbt_disable's call); at each
# function's first call there gdb records its arguments (as `info args` reads them, from the
# DWARF locations) and, through a `finish` breakpoint, its return value. Writes
#   COUNT name n / ARGS name v... / RET name v
# to FBT_OUT. FBT_FUNCS: "name:address ..." (addresses from nm: clones have dotted names).
# FBT_WINDOW: the functions that place and remove the probes, "kfbt_enable kfbt_disable" by
# default (test/qemu/test_usdt.sh counts a program's functions under its pid probes:
# "kpid_enable kpid_disable"). FBT_TEXT: "address:length ..." of code to read when the window
# closes, written as TEXT address hex (what the probed functions' text holds then).
import os
import gdb

out = open(os.environ["FBT_OUT"], "w")
funcs = [w.split(":") for w in os.environ["FBT_FUNCS"].split()]
SAMPLES = 5         # the D program prints each function's first calls, up to this many
state = {"open": False, "done": False, "finishing": False}
counts = {name: 0 for name, _ in funcs}
sampled = {}        # name -> the call gdb sampled (1-based)
pending = []        # (kind, name) to act on at the stop: gdb forbids new breakpoints and
                    # execution in a stop method


def as_int(v):
    try:
        return int(v)
    except (gdb.error, TypeError, ValueError):
        return None


class OpenWindow(gdb.FinishBreakpoint):
    def stop(self):
        state["open"] = not state["done"]
        return False

    def out_of_scope(self):
        pass


class Window(gdb.Breakpoint):
    def __init__(self, spec, opens):
        super().__init__(spec, internal=True)
        self.opens = opens

    def stop(self):
        if self.opens and not state["open"] and not state["done"]:
            pending.append(("open", None))
            return True
        if not self.opens and state["open"]:
            state["open"] = False
            state["done"] = True
            for w in os.environ.get("FBT_TEXT", "").split():
                a, n = (int(x, 0) for x in w.split(":"))
                mem = gdb.selected_inferior().read_memory(a, n)
                out.write("TEXT %#x %s\n" % (a, bytes(mem).hex()))
        return False


class Count(gdb.Breakpoint):
    def __init__(self, name, addr):
        super().__init__("*" + addr, internal=True)
        self.name = name

    def stop(self):
        if not state["open"]:
            return False
        counts[self.name] += 1
        if (self.name not in sampled and counts[self.name] <= SAMPLES and
                not state["finishing"]):
            sampled[self.name] = counts[self.name]
            pending.append(("sample", self.name))
            return True
        return False


place, remove = os.environ.get("FBT_WINDOW", "kfbt_enable kfbt_disable").split()
Window(place, True)
Window(remove, False)
for name, addr in funcs:
    Count(name, addr)

while True:
    try:
        gdb.execute("continue", to_string=True)
    except gdb.error:
        break   # QEMU exited: the boot is over
    while pending:
        kind, name = pending.pop(0)
        frame = gdb.newest_frame()
        while frame.type() == gdb.INLINE_FRAME:   # a callee inlined at the first instruction
            frame = frame.older()
        if kind == "open":
            OpenWindow(frame, internal=True)
            continue
        block = frame.block()
        while block.function is None and block.superblock is not None:
            block = block.superblock              # the arguments are the function's block's
        vals = [as_int(sym.value(frame)) for sym in block if sym.is_argument]
        out.write("ARGS %s %d %s\n" % (name, sampled[name],
                                       " ".join("-" if v is None else str(v) for v in vals)))
        # `bt`'s callers: each machine frame once (an inlined caller shares its pc; a frame gdb
        # makes up for a function that left by a tail call has no machine frame), up to the
        # exception entry's frame
        pcs, f = [], frame.older()
        while f is not None and f.type() in (gdb.NORMAL_FRAME, gdb.INLINE_FRAME,
                                             gdb.TAILCALL_FRAME) and len(pcs) < 8:
            if f.type() == gdb.NORMAL_FRAME:
                pcs.append(f.pc())
            f = f.older()
        out.write("STACK %s %d %s\n" % (name, sampled[name], " ".join("%#x" % p for p in pcs)))
        # `finish` (as a user would type it): other calls are counted on the way, none sampled
        rtype = frame.function().type.target() if frame.function() else None
        state["finishing"] = True
        try:
            gdb.execute("finish", to_string=True)
            done = True
        except gdb.error:
            done = False
        state["finishing"] = False
        # the value `finish` printed ("Value returned is $n = v") is the history's newest
        if done and rtype is not None and rtype.code != gdb.TYPE_CODE_VOID:
            out.write("RET %s %d %s\n" % (name, sampled[name], as_int(gdb.history(0))))

for name, _ in funcs:
    out.write("COUNT %s %d\n" % (name, counts[name]))
out.close()
