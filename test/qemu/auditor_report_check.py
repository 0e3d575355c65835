#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# kevreport's page over a capture of user/apps/auditor, read in Chromium as a user would
# (test/qemu/test_auditor.sh), against what the program counted on its own: the findings'
# table of who blocked whom names the consumer waiting on the mutex held by the auditor with
# the program's count (between its waits over 100 us and over 50 us: the default threshold)
# and worst wait; its "show" button moves the timeline to that worst wait; the auditor is
# boosted once a wait, the server's priority changes are message inheritance, not boosts; no
# inversion is listed (the mutex inherits); the contents bar links every section and a click
# on one brings it to the top; CPU time and kernel calls come before the event list. Leaves a
# screenshot of the page at SHOT. Prints TAP.
#   auditor_report_check.py PAGE.html RUN_LOG SHOT.png
import os, re, shutil, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from chromium_driver import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

page, log_f, shot = sys.argv[1:4]
log = open(log_f, errors="replace").read()
def check(cond, what, diag=""):
    print(("ok" if cond else "not ok"), "-", what)
    if not cond and diag:
        print("# " + str(diag)[:400])
m = re.search(r"auditor: mutex (\d+) consumer \d+ auditor \d+ waits (\d+) total_us (\d+) worst_us (\d+) "
              r"over_100us (\d+) over_50us (\d+)", log)
s = re.search(r"auditor: server \d+ client \d+ up (\d+) down (\d+) own (\d+)", log)
if not (m and s):
    check(False, "the program printed what it knows")
    sys.exit(1)
mtx, waits, total, worst, o100, o50 = (int(x) for x in m.groups())
up, down, own = (int(x) for x in s.groups())

def ms_text(t):  # "2.128 ms", "980.5 us", as the page writes a time (report.js fmtTime)
    v = re.match(r"([0-9.]+) (ms|us|ns|s)$", t)
    return float(v.group(1)) * {"s": 1e6, "ms": 1e3, "us": 1, "ns": 1e-3}[v.group(2)] if v else -1

d, prof = chromium()
try:
    d.get("file://" + page)
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-contents") == "1")
    check(not d.find_elements(By.ID, "errors"), "the page loads with no script error")
    rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in d.find_elements(By.CSS_SELECTOR, "#waits-table tr")[1:]]
    row = [r for r in rows if r[0].startswith("auditor/consumer") and r[1].startswith("mutex %d " % mtx)]
    check(len(row) == 1 and row[0][2].startswith("auditor/auditor") and o100 <= int(row[0][3]) <= o50,
          "who blocked whom: consumer on mutex %d held by auditor, %s waits (the program: %d over 100 us, %d over 50 us)"
          % (mtx, row[0][3] if row else None, o100, o50), rows)
    w = ms_text(row[0][5]) if row else -1
    check(abs(w - worst) <= 0.03 * worst + 100, "its worst wait %s = the program's %d us" % (row[0][5] if row else None, worst))
    inv = d.find_elements(By.CSS_SELECTOR, "#findings li.inversion")
    check(not inv, "no inversion listed on a mutex with inheritance", [i.text for i in inv])
    boosts = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#findings li.boost")]
    check(boosts == ["auditor/auditor boosted %d time(s) by priority inheritance (mutex)" % waits],
          "boosts: the auditor %d times, nobody else (%s)" % (waits, boosts))
    mi = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#findings li.msginh")]
    check(any(t.startswith("auditor/server took its clients' priorities") and "raised %d time(s), lowered %d time(s)" % (up, down) in t
              for t in mi), "the server's changes as message inheritance, %d up and %d down (%s)" % (up, down, mi))
    # the show button: the view is centred on the worst wait, which the row names
    if row:
        d.find_elements(By.CSS_SELECTOR, "#waits-table tr")[1 + rows.index(row[0])].find_element(By.CSS_SELECTOR, "button.show").click()
        view = d.find_element(By.ID, "view-info").text
        v = re.search(r"view ([0-9.]+ \w+) \.\. ([0-9.]+ \w+) since boot", view)
        at = ms_text(row[0][6])
        check(v and ms_text(v.group(1)) <= at + 1 and at + w <= ms_text(v.group(2)) + 1,
              "show: the timeline shows the worst wait (%s .. +%s) in its view (%s)" % (row[0][6], row[0][5], view))
    links = [(a.get_attribute("href").split("#")[-1], a.text) for a in d.find_elements(By.CSS_SELECTOR, "#contents a")]
    ids = [x.get_attribute("id") for x in d.find_elements(By.CSS_SELECTOR, "body > section[id]")]
    check([x[0] for x in links] == ids and {"findings", "cpu", "kcalls", "events"} <= set(ids),
          "the contents bar links every section in its order (%s)" % links)
    check(ids.index("cpu") < ids.index("events") and ids.index("kcalls") < ids.index("events"),
          "CPU time and kernel calls come before the event list (%s)" % ids)
    d.find_element(By.CSS_SELECTOR, "#contents a[href='#kcalls']").click()
    top = d.execute_script("return document.getElementById('kcalls').getBoundingClientRect().top")
    bar = d.execute_script("return document.getElementById('contents').getBoundingClientRect()")
    check(0 <= top <= 60 and bar["top"] == 0,
          "a click on Kernel calls brings it to the top, under the contents bar still shown (%s, %s)" % (top, bar))
    d.execute_script("window.scrollTo(0, 0)")
    d.save_screenshot(shot)
finally:
    d.quit()
    shutil.rmtree(prof, ignore_errors=True)
