#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# kevreport's analysis page driven as a user would, in a real Chromium through chromedriver
# (Debian's python3-selenium): the findings panel names the inversions (who, on what, time
# lost, every middle thread with its share) and the deadlock cycle of kevscen's "sync" scenario as its "expect" lines give them
# (computed from the script, not from a tool); "show" and go-to-time move the view; the event
# list searches and filters (counts against traceprinter's lines) and follows the view; a range
# gives the first round's noise 100% of the CPU; CPU load, priority lane, blocked-by arrows; a
# truncated trace's blocked threads drawn to its end; who blocked whom (the script's waits
# grouped with their counts and totals), inversions ranked by the time they cost, the contents
# bar, and at a threshold over every wait (PAGE_MIN, --wait-min 10ms) none listed, each counted.
# Prints TAP.
#   test_kevreport_ui.py PAGE.html EXPECT TRACEPRINTER_OUTPUT KEVSTAT_JSON [PAGE_MIN.html]
import json, re, sys, shutil
from chromium_driver import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

page, expect_f, tp_f, js_f = sys.argv[1:5]
page_min = sys.argv[5] if len(sys.argv) > 5 else None  # the same at kevreport --wait-min 10ms
expect = [l.split()[1:] for l in open(expect_f) if l.startswith("expect ")]
tp = open(tp_f, errors="replace").read().splitlines()
stats = json.load(open(js_f))
n = 0
fails = 0
def check(cond, what, diag=""):
    global n, fails
    n += 1
    if cond:
        print("ok %d - %s" % (n, what))
    else:
        fails += 1
        print("not ok %d - %s" % (n, what))
        if diag:
            print("# " + str(diag)[:400])

def fmt_time(us):  # report.js's fmtTime
    s = us / 1e6
    if s < 1e-3: return "%.*f us" % (2 if s < 1e-5 else 1, us)
    if s < 1: return "%.*f ms" % (3 if s < 1e-2 else 2, s * 1e3)
    return "%.3f s" % s

def ms_of(t):
    v, u = t.split()
    return float(v) * {"s": 1e3, "ms": 1, "us": 1e-3, "ns": 1e-6}[u]

def fmt_ms(us):  # report.js's fmtTime for 1 ms <= t < 1 s
    s = us / 1e6
    return "%.*f ms" % (3 if s < 1e-2 else 2, s * 1e3)

d, prof = chromium()
try:
    d.get("file://" + page)
    WebDriverWait(d, 20).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-analysis") == "1")
    check(True, "the page loads and the analysis module runs")
    check(not d.find_elements(By.ID, "errors"), "no script error on the page")

    # findings, against the script's expectations
    inv = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#findings li.inversion .text")]
    for e in expect:
        if e[0] == "inversion":
            w, kind, obj, owner, mid, lost_us, cnt = e[1:8]
            want = "Priority inversion: %s (prio" % w
            hit = [t for t in inv if t.startswith(want) and ("blocked on %s %s held by %s" % (kind, obj, owner)) in t
                   and ("preempted by %s" % mid) in t and (": %s lost in %s wait(s)" % (fmt_ms(int(lost_us)), cnt)) in t]
            check(len(hit) == 1, "findings: %s behind %s on %s %s preempted by %s, %s lost" % (w, owner, kind, obj, mid, fmt_ms(int(lost_us))), inv)
        if e[0] == "middles":
            # two middle threads in turn: each with its own share, largest first
            w, kind, obj, m1, l1, m2, l2 = e[1:8]
            want = r"preempted by %s \(prio \d+\) for %s, %s \(prio \d+\) for %s: %s lost" % (
                re.escape(m1), re.escape(fmt_ms(int(l1))), re.escape(m2), re.escape(fmt_ms(int(l2))),
                re.escape(fmt_ms(int(l1) + int(l2))))
            hit = [t for t in inv if t.startswith("Priority inversion: %s (prio" % w)
                   and ("blocked on %s %s " % (kind, obj)) in t and re.search(want, t)]
            check(len(hit) == 1, "findings: %s on %s %s preempted by %s for %s, %s for %s" % (
                w, kind, obj, m1, fmt_ms(int(l1)), m2, fmt_ms(int(l2))), inv)
        if e[0] == "inversions":
            check(len(inv) == int(e[1]), "findings: exactly %s inversions" % e[1], inv)
        if e[0] == "deadlock":
            txt = [x.text for x in d.find_elements(By.CSS_SELECTOR, "#findings li.deadlock .text")]
            cyc = " ".join(e[2:])
            check(len(txt) == 1 and cyc in txt[0] and "still blocked at the end" in txt[0],
                  "findings: the deadlock cycle, still open at the end: " + cyc, txt)
        if e[0] == "noise_run":
            t0, t1 = int(e[1]), int(e[2])

    def view():
        m = re.match(r"view (-?[0-9.]+) (ms|us|s|ns) \.\. (-?[0-9.]+) (ms|us|s|ns) since boot", d.find_element(By.ID, "view-info").text)
        k = {"s": 1e3, "ms": 1, "us": 1e-3, "ns": 1e-6}
        return float(m.group(1)) * k[m.group(2)], float(m.group(3)) * k[m.group(4)]

    # "show" on the first inversion: the view moves to it
    d.find_element(By.CSS_SELECTOR, "#findings li.inversion button.show").click()
    a, b = view()
    check(a <= 2.15 <= b, "show moves the timeline to the inversion (view %.3f .. %.3f ms)" % (a, b))
    arrows = int(d.find_element(By.ID, "timeline").get_attribute("data-arrows") or 0)
    check(arrows >= 2, "blocked-by arrows drawn there (%d)" % arrows)

    # go to a time since boot
    g = d.find_element(By.ID, "goto")
    g.clear(); g.send_keys("20" + Keys.ENTER)
    a, b = view()
    check(abs((a + b) / 2 - 20) < 0.01, "go to 20 ms centres the view there (%.3f .. %.3f)" % (a, b))

    # the event list: search and filter, against traceprinter's own lines
    inview = d.find_element(By.ID, "ev-inview")
    if inview.is_selected():
        inview.click()
    s = d.find_element(By.ID, "ev-search")
    s.clear(); s.send_keys("MutexLock")
    WebDriverWait(d, 5).until(lambda d: d.find_element(By.ID, "ev-count").get_attribute("data-n") is not None)
    import time; time.sleep(0.3)
    got = int(d.find_element(By.ID, "ev-count").get_attribute("data-n"))
    want = sum(1 for l in tp if re.search(r"KER_(CALL|EXIT):SYNC_MUTEX_LOCK/80 ", l))  # QNX names
    check(got == want, "search MutexLock: %d events, traceprinter prints %d" % (got, want))
    rows = d.find_elements(By.CSS_SELECTOR, "#ev-table tr.ev")
    check(rows and all("MutexLock" in r.text for r in rows), "every row found holds MutexLock")
    s.clear()
    Select(d.find_element(By.ID, "ev-class")).select_by_value("PR_TH")
    time.sleep(0.3)
    got = int(d.find_element(By.ID, "ev-count").get_attribute("data-n"))
    want = stats["trace"]["classes"].get("PR_TH", 0)
    check(got == want, "class filter PR_TH: %d events, the trace has %d" % (got, want))
    Select(d.find_element(By.ID, "ev-class")).select_by_value("")
    # synchronised: only the view's events; a click on a row moves the view to it
    inview.click()
    time.sleep(0.3)
    a, b = view()
    ts = [r.find_elements(By.TAG_NAME, "td")[0].text for r in d.find_elements(By.CSS_SELECTOR, "#ev-table tr.ev")]
    def ms(t):
        v, u = t.split(); return float(v) * {"s": 1e3, "ms": 1, "us": 1e-3, "ns": 1e-6}[u]
    check(ts and all(a - 0.01 <= ms(t) <= b + 0.01 for t in ts), "in-view list: %d events, all inside the view" % len(ts))
    row = d.find_elements(By.CSS_SELECTOR, "#ev-table tr.ev")[len(ts) // 2]
    t_row = ms(row.find_elements(By.TAG_NAME, "td")[0].text)
    row.click()
    time.sleep(0.3)
    a, b = view()
    check(abs((a + b) / 2 - t_row) < 0.01, "a click on an event centres the timeline on it (%.3f ms)" % t_row)
    check(d.find_elements(By.CSS_SELECTOR, "#ev-table tr.sel"), "the clicked event stays selected")

    # statistics of a range: the first round's noise run
    f = d.find_element(By.ID, "range-from"); f.clear(); f.send_keys("%g" % (t0 / 1000))
    t = d.find_element(By.ID, "range-to"); t.clear(); t.send_keys("%g" % (t1 / 1000))
    d.find_element(By.ID, "range-btn").click()
    cells = [r.text for r in d.find_elements(By.CSS_SELECTOR, "#range-stats tr")]
    nz = [c for c in cells if c.startswith("noise/main")]
    check(nz and ("%s 100.0%%" % fmt_ms(t1 - t0)) in nz[0], "range %g..%g ms: noise/main ran it all" % (t0 / 1000, t1 / 1000), cells)

    # CPU load and the priority lane
    load = float(d.find_element(By.ID, "cpuload-0").get_attribute("data-load"))
    busy = stats["busy_cycles"][0] if stats.get("busy_cycles") else None
    span = stats["trace"]["last"] - stats["trace"]["first"]
    # a CPU's idle thread is labelled with its CPU: "procnto/idle (CPU 0)"
    idle = sum(th["cpu_cycles"] for th in stats["threads"] if re.search(r"(^|/)idle( \(CPU \d+\))?$", th["name"]))
    cpu = sum(th["cpu_cycles"] for th in stats["threads"]) - idle
    check(abs(load - cpu / span) < 0.002, "CPU 0 load over the trace %.4f = the threads' CPU time / span %.4f" % (load, cpu / span))
    runs = int(d.find_element(By.ID, "priolane-0").get_attribute("data-runs"))
    check(runs > 0, "the priority lane draws %d runs with their priorities" % runs)
    d.find_element(By.ID, "cpuload-0").click()
    check(True, "the CPU load chart takes a click")

    # the truncated trace's blocked threads: drawn to its end
    segs = d.execute_script("var T = kevReport.T; return T.seg.filter(function (s) { return /^(a|b)\\/main$/.test(T.threads[s[0]].name) && T.states[s[3]] === 'MUTEX'; }).map(function (s) { return [s[2], T.span]; });")
    check(len(segs) == 2 and all(s[0] == s[1] for s in segs), "a and b: MUTEX drawn to the end of the trace", segs)
    # who blocked whom, how long: the script's waits grouped by waiter, object and holder, each
    # group's count and total (its waits still open at the end left out: they last to the
    # end), largest total first; the inversions ranked by the time they cost
    groups = {}
    for e in expect:
        if e[0] == "wait":
            g = groups.setdefault((e[2], e[5] + " " + e[6], e[7]), [0, 0, False])
            if int(e[4]) < 0:
                g[2] = True
            else:
                g[0] += 1; g[1] += int(e[4])
    rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in d.find_elements(By.CSS_SELECTOR, "#waits-table tr")[1:]]
    got = {(r[0].split(" (prio")[0], r[1].split(" (")[0], r[2].split(" (prio")[0]): (int(r[3]), r[4]) for r in rows}
    want = {k: (v[0], fmt_time(v[1])) for k, v in groups.items() if not v[2]}
    check(want and all(got.get(k) == v for k, v in want.items()),
          "who blocked whom: every waiter, object and holder with the script's count and total (%s)" % want, rows)
    tot = [ms_of(r[4]) for r in rows]
    check(tot == sorted(tot, reverse=True), "largest total first (%s)" % tot)
    lost = [re.search(r": ([0-9.]+ \w+) lost in", t) for t in inv]
    lost = [ms_of(x.group(1)) if x else -1 for x in lost]
    wl = sorted((int(e[6]) / 1000 for e in expect if e[0] == "inversion"), reverse=True)
    check(lost == wl, "inversions ranked by the time they cost: %s ms, the script's %s" % (lost, wl))
    # the contents bar: every section one click away, in the page's order
    links = [a.get_attribute("href").split("#")[-1] for a in d.find_elements(By.CSS_SELECTOR, "#contents a")]
    ids = [x.get_attribute("id") for x in d.find_elements(By.CSS_SELECTOR, "body > section[id]")]
    check(links == ids and "findings" in ids and ids[-1] == "events", "contents bar: %s, the event list last" % links)
    errs = [l for l in d.get_log("browser") if l.get("level") == "SEVERE"]
    check(not errs, "no error in the browser's console", errs)
    # the same page at kevreport --wait-min 10ms: every wait and inversion of the script costs
    # less (the longest inversion 6 ms in all): none listed, each counted with the time they lost
    if page_min:
        d.get("file://" + page_min)
        WebDriverWait(d, 20).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-contents") == "1")
        small = d.find_elements(By.ID, "inversions-small")
        want = "%d inversion(s) under the threshold not listed (%s lost in all)." % (len(wl), fmt_time(sum(wl) * 1000))
        check(not d.find_elements(By.CSS_SELECTOR, "#findings li.inversion") and small and small[0].text == want,
              "--wait-min 10ms: no inversion listed, '%s'" % want, small[0].text if small else None)
        check(d.find_elements(By.ID, "waits-none") and "waits of 10.00 ms or more" in d.find_element(By.ID, "waits-rule").text,
              "--wait-min 10ms: no wait listed, the page says the threshold")
finally:
    d.quit()
    shutil.rmtree(prof, ignore_errors=True)
print("1..%d" % n)
sys.exit(1 if fails else 0)
