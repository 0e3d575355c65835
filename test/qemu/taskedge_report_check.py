#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# kevreport's Tasks section over a capture of user/apps/taskedge, read in Chromium as a user would
# (test/qemu/test_taskedge.sh), against what the program counted itself (the same figures
# taskedge_check.py holds kevstat and kevsql to): taskedge/lossy periodic with its misses and
# the pulses it lost as missed periods, and the heading's count of them; taskedge/exiter's last
# instance its exit path, no miss, its histogram counting every job; taskedge/server
# event-driven, no period, no deadline, no miss; and on the page made with --deadline
# taskedge/server=DEADLINE_US, the program's misses of the server listed. Leaves a screenshot of
# the section at SHOT. Prints TAP-like lines.
#   taskedge_report_check.py PAGE.html PAGE_WITH_DEADLINE.html RUN_LOG SHOT.png
import os, re, shutil, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_driver import chromium
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.common.by import By
from tasks_common import check

page, page_dl, log_f, shot = sys.argv[1:5]
log = open(log_f, errors="replace").read()
m = re.search(r"taskedge: lossy jobs (\d+) periods (\d+) lost (\d+) misses (\d+)", log)
e = re.search(r"taskedge: exiter jobs (\d+) worst (\d+) misses (\d+)", log)
s = re.search(r"taskedge: server reqs (\d+) deadline_us (\d+) misses (\d+)", log)
if not (m and e and s):
    check(False, "taskedge printed its summaries")
    sys.exit(1)
l_jobs, _, l_lost, l_misses = (int(x) for x in m.groups())
e_jobs = int(e.group(1))
s_reqs, s_misses = int(s.group(1)), int(s.group(3))


def table(d, url):
    d.get("file://" + url)
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-tasks") == "1")
    check(not d.find_elements(By.ID, "errors"), "the page loads with no script error")
    rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in d.find_elements(By.CSS_SELECTOR, "#tasks-table tr")[1:]]
    return {r[0]: r for r in rows if r}


d, prof = chromium()
try:
    t = table(d, page)
    # columns: task, instances, period, jitter, deadline, response, worst lateness, misses,
    # the emulator's, kind, missed periods
    L, E, S = t.get("taskedge/lossy"), t.get("taskedge/exiter"), t.get("taskedge/server")
    check(L and L[1] == str(l_jobs) and L[7] == str(l_misses) and L[9] == "periodic (timer)" and L[10] == str(l_lost),
          "tasks table: taskedge/lossy, %d instances, %d misses, periodic (timer), %d missed periods" % (l_jobs, l_misses, l_lost), L)
    h = d.find_element(By.ID, "tasks-h").text
    check(("%d missed period(s)" % l_lost) in h, "the heading counts the %d missed periods" % l_lost, h)
    check(E and E[1] == "%d (1 ended in its exit: no job)" % e_jobs and E[7] == "0" and E[8] == "0",
          "tasks table: taskedge/exiter, %d instances, the last its exit, no miss" % e_jobs, E)
    hist = [x.text for x in d.find_elements(By.CSS_SELECTOR, "#tasks-hists .hist")
            if x.text.startswith("taskedge/exiter response time")]
    check(hist and ("n %d," % e_jobs) in hist[0], "the exiter's response-time histogram counts its %d jobs, the last "
          "before its exit path too" % e_jobs, hist)
    check(S and S[1] == str(s_reqs) and S[2] == "-" and S[4] == "-" and S[7] == "0" and S[9] == "event-driven (message)",
          "tasks table: taskedge/server, %d instances, event-driven (message), no period, no deadline, no miss" % s_reqs, S)
    miss = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#misses li.miss") if li.text.startswith("taskedge/server")]
    check(not miss, "no miss of taskedge/server listed", miss[:2])
    d.execute_script("document.getElementById('tasks').scrollIntoView()")
    d.save_screenshot(shot)
    t = table(d, page_dl)
    S = t.get("taskedge/server")
    check(S and S[4].endswith("(given)") and S[7] == str(s_misses),
          "with --deadline: taskedge/server's deadline given, %d misses (the program's)" % s_misses, S)
    miss = [li for li in d.find_elements(By.CSS_SELECTOR, "#misses li.miss") if li.text.startswith("taskedge/server")]
    check(len(miss) == s_misses, "with --deadline: %d misses of taskedge/server listed" % s_misses, len(miss))
finally:
    d.quit()
    shutil.rmtree(prof, ignore_errors=True)
