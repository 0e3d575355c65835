# SPDX-License-Identifier: MIT
# What user/apps/cadence and user/apps/relay print of their own runs (test/qemu/test_tasks.sh):
# cadence's jobs (release and end in cycles since boot, on the program's own clock) and summary,
# relay's rounds (its client's and server's waits) and ids; and the checkers' one way to say a
# result ("ok - ..." / "not ok - ...", a failure's diagnostic after "# ").
import re


def check(cond, what, diag=""):
    print(("ok" if cond else "not ok"), "-", what)
    if not cond and diag:
        print("# " + str(diag)[:600])


def cadence(log):
    m = re.search(r"cadence: worker (\d+) clock (\d+) period_us (\d+) jobs (\d+) overruns (\d+) "
                  r"misses (\d+) cps (\d+)", log)
    if not m:
        return None
    w, c, period_us, jobs, over, misses, cps = (int(x) for x in m.groups())
    job = {int(k): (int(r), int(e)) for k, r, e in re.findall(r"cadence: job (\d+) release (\d+) end (\d+)", log)}
    return {"worker": w, "clock": c, "period_us": period_us, "jobs": jobs, "overruns": over,
            "misses": misses, "cps": cps, "job": [job.get(k) for k in range(jobs)]}


def relay(log):
    m = re.search(r"relay: mutex (\d+) client (\d+) server (\d+) holder (\d+) rounds (\d+) cps (\d+)", log)
    if not m:
        return None
    mtx, cl, srv, hold, rounds, cps = (int(x) for x in m.groups())
    rnd = {int(k): (int(s), int(c), int(w)) for k, s, c, w in
           re.findall(r"relay: round (\d+) send (\d+) client_wait (\d+) server_wait (\d+)", log)}
    return {"mutex": mtx, "client": cl, "server": srv, "holder": hold, "rounds": rounds, "cps": cps,
            "round": [rnd.get(k) for k in range(rounds)]}
