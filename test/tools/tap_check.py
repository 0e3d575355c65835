# SPDX-License-Identifier: MIT
# TAP lines for the Python checkers the shell tests run: "ok N - name" or "not ok N - name",
# then on a failure its detail on a "# " line (cut to DETAIL_MAX characters). The count and the
# failures are kept here, so the plan line and the exit status come from one place.
import sys

DETAIL_MAX = 1500
_n = 0
_failed = 0


def check(name, cond, detail=""):
    global _n, _failed
    _n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (_n, name))
    if not cond:
        _failed += 1
        if detail != "" and detail is not None:
            print("# " + str(detail)[:DETAIL_MAX])
    return bool(cond)


def plan():
    """The plan line, after the checks made so far."""
    print("1..%d" % _n)


def failed():
    return _failed


def exit_status():
    """Exits 1 when a check failed, else 0."""
    sys.exit(1 if _failed else 0)
