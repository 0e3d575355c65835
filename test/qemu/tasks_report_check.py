#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# kevreport's Tasks section over a capture of user/apps/cadence, read in Chromium as a user would
# (test/qemu/test_tasks.sh), against what the program measured on its own clock: the tasks
# table gives cadence/worker its jobs, the period it programmed and its misses; the list of
# misses names each overrun job, released when the program released it and answering in the
# time it measured (within 1 us, and the page's rounding); a miss's "show" button puts that job
# in the timeline's view; the worker's response-time histogram counts every job; the contents
# bar leads to the section. And the wait chains of user/apps/relay against the waits it measured:
# the findings' sentence for relay/client's worst wait (its send to relay/server, which waited
# on the mutex held by relay/main, each time as the program measured it, within 1.5 us and the
# page's rounding), its "show" button, the slowest request's states in the model's words, the
# page saying its times count from boot. Leaves a screenshot of the Tasks section at SHOT and of
# the findings beside it (SHOT's name with -findings). Prints TAP-like lines.
#   tasks_report_check.py PAGE.html RUN_LOG SHOT.png
import os, re, shutil, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_driver import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from tasks_common import check, cadence, relay

page, log_f, shot = sys.argv[1:4]
log = open(log_f, errors="replace").read()
c, rl = cadence(log), relay(log)


def us_of(t):  # "2.128 ms", "980.5 us", as the page writes a time (report.js fmtTime)
    v = re.match(r"\s*([0-9.]+) (ms|us|ns|s)\b", t)
    return float(v.group(1)) * {"s": 1e6, "ms": 1e3, "us": 1, "ns": 1e-3}[v.group(2)] if v else -1


def relay_checks(d):
    """relay/client's worst wait in the findings, its show button, the slowest request's states."""
    tb = d.find_elements(By.ID, "time-base")
    check(tb and "counts from boot" in tb[0].text, "the page says its times count from boot",
          tb[0].text if tb else "no #time-base")
    if not rl or None in rl["round"]:
        check(False, "relay printed every round and its ids")
        return
    cps = rl["cps"]
    k = max(range(rl["rounds"]), key=lambda i: rl["round"][i][1])
    send, cw, sw = (x * 1e6 / cps for x in rl["round"][k])
    li = d.find_elements(By.CSS_SELECTOR, "#chains-list li[data-waiter='relay/client']")
    text = li[0].find_element(By.CSS_SELECTOR, ".text").text if li else ""
    m = re.match(r"relay/client \(prio 15\) waited (.+?) at (.+?): its send to relay/server, which waited (.+?) "
                 r"on mutex %d held by relay/main; attributed to .*relay/main ([0-9.]+ \w+)" % rl["mutex"], text)
    tol = 1.5 + 0.5  # and the page's rounding ("7.503 ms")
    check(m and abs(us_of(m.group(1)) - cw) <= tol and abs(us_of(m.group(2)) - send) < 20 and
          abs(us_of(m.group(3)) - sw) <= tol and abs(us_of(m.group(4)) - sw) <= tol,
          "findings: relay/client waited %.1f us at %.1f us: its send to relay/server, which waited %.1f us on "
          "mutex %d held by relay/main, attributed to relay/main (the program's round %d)" % (cw, send, sw, rl["mutex"], k),
          text)
    if li:
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", li[0])  # below the contents bar
        li[0].find_element(By.CSS_SELECTOR, "button.show").click()
        view = d.find_element(By.ID, "view-info").text
        v = re.search(r"view ([0-9.]+ \w+) \.\. ([0-9.]+ \w+) since boot", view)
        check(v and us_of(v.group(1)) <= send and send + cw <= us_of(v.group(2)),
              "findings: show puts the wait (%.1f .. %.1f us since boot) in the timeline's view (%s)" % (send, send + cw, view))
        d.execute_script("document.getElementById('findings').scrollIntoView()")
    cells = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
             for tr in d.find_elements(By.CSS_SELECTOR, "#worst-request tr")[1:]]
    words = [x[1] for x in cells]
    check("works" not in words and ("blocked (MUTEX) on mutex %d held by relay/main (prio 8)" % rl["mutex"]) in words,
          "the slowest request in the model's words: the server blocked on the mutex, held by relay/main at its prio 8",
          words)


if not c or None in c["job"]:
    check(False, "cadence printed every job and its summary")
    sys.exit(1)
cps = c["cps"]
over = [k for k, (r, e) in enumerate(c["job"]) if (e - r) * 1e6 / cps > c["period_us"]]
d, prof = chromium()
try:
    d.get("file://" + page)
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-contents") == "1")
    check(not d.find_elements(By.ID, "errors"), "the page loads with no script error")
    check(d.find_element(By.TAG_NAME, "body").get_attribute("data-tasks") == "1", "the Tasks section is built")
    rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in d.find_elements(By.CSS_SELECTOR, "#tasks-table tr")[1:]]
    row = [r for r in rows if r[0] == "cadence/worker"]
    check(len(row) == 1 and row[0][1] == str(c["jobs"]) and abs(us_of(row[0][2]) - c["period_us"]) <= 1 and
          row[0][4].endswith("(period)") and row[0][7] == str(c["misses"]),
          "tasks table: cadence/worker, %d instances, period %d us, deadline its period, %d misses"
          % (c["jobs"], c["period_us"], c["misses"]), rows)
    misses = d.find_elements(By.CSS_SELECTOR, "#misses li.miss")
    check(len(misses) == len(over), "%d misses listed (the program's overrun jobs %s)" % (len(misses), over),
          [m.text for m in misses])
    good = 0
    for m, k in zip(misses, over):
        rel, end = c["job"][k]
        text = m.find_element(By.CSS_SELECTOR, ".text").text
        r = re.search(r"response ([0-9.]+ \w+)", text)
        page_rel = int(m.get_attribute("data-release"))
        if (abs(page_rel - rel) * 1e6 / cps <= 1.0 and r and
                abs(us_of(r.group(1)) - (end - rel) * 1e6 / cps) <= 1.0 + 0.5):
            good += 1
        else:
            print("# job %d: release %d, page %d; %s" % (k, rel, page_rel, text))
    check(misses and good == len(over), "each miss released when the program released its job and answering in the "
          "time it measured, within 1 us (%d of %d)" % (good, len(over)))
    if misses:
        rel, end = c["job"][over[0]]
        misses[0].find_element(By.CSS_SELECTOR, "button.show").click()
        view = d.find_element(By.ID, "view-info").text
        v = re.search(r"view ([0-9.]+ \w+) \.\. ([0-9.]+ \w+) since boot", view)
        a, b = rel * 1e6 / cps, end * 1e6 / cps
        check(v and us_of(v.group(1)) <= a and b <= us_of(v.group(2)),
              "show: job %d (%.1f .. %.1f us since boot) in the timeline's view (%s)" % (over[0], a, b, view))
    hist = [h.text for h in d.find_elements(By.CSS_SELECTOR, "#tasks-hists .hist")
            if h.text.startswith("cadence/worker response time")]
    check(hist and ("n %d," % c["jobs"]) in hist[0], "the worker's response-time histogram counts its %d jobs" % c["jobs"], hist)
    d.find_element(By.CSS_SELECTOR, "#contents a[href='#tasks']").click()
    top = d.execute_script("return document.getElementById('tasks').getBoundingClientRect().top")
    check(0 <= top <= 60, "the contents bar's Tasks brings the section to the top (%s)" % top)
    d.save_screenshot(shot)
    relay_checks(d)
    d.save_screenshot(shot.replace(".png", "-findings.png"))
finally:
    d.quit()
    shutil.rmtree(prof, ignore_errors=True)
