#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# kevreport's page as a user reads it, in a real Chromium through chromedriver (Debian's
# python3-selenium): under its summary, how the capture's time was kept and each warning of
# the emulator's artefacts, shown (visible, on screen without scrolling) and saying what
# kevstat's "time:" and "WARNING:" lines say for the same capture (one computation, kx_emul.c).
# With the script's expectations (kevscen4 emul, its sampler client/main given its deadline):
# the Tasks section's row counts the program's misses and the emulator's apart, and the list
# of misses marks the emulator's, each saying so.
# Prints TAP.
#   test_kevreport_clock.py PAGE.html KEVSTAT_TEXT [EXPECT]
import shutil, sys
from chromium_driver import chromium
from tap_check import check, exit_status, plan
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

page, stat_f = sys.argv[1], sys.argv[2]
exp = {}
for l in open(sys.argv[3]) if len(sys.argv) > 3 else []:
    if l.startswith("expect emul.tasks."):
        k, v = l.split()[1:3]
        exp[k[len("emul.tasks."):]] = v
lines = open(stat_f).read().splitlines()
says = [l[len("time: "):] for l in lines if l.startswith("time: ")]
warns = [l[len("WARNING: "):] for l in lines if l.startswith("WARNING: ")]

d, prof = chromium()
try:
    d.get("file://" + page)
    WebDriverWait(d, 20).until(lambda d: d.find_elements(By.ID, "clock"))
    clock = d.find_element(By.ID, "clock")
    check("the page names the mode as kevstat does (%s)" % says[0][:60],
          clock.is_displayed() and clock.text == "Time: %s." % says[0], clock.text)
    shown = [e for e in d.find_elements(By.CSS_SELECTOR, "p.emul-warning")]
    check("the page shows kevstat's %d warnings, in its order" % len(warns),
          [e.text for e in shown] == ["Warning: %s." % w for w in warns],
          ([e.text[:80] for e in shown], [w[:80] for w in warns]))
    check("the warnings are on screen when the page opens",
          shown and all(e.is_displayed() and e.rect["y"] + e.rect["height"] <= 1000 for e in shown),
          [e.rect for e in shown])
    if exp:
        rows = [[c.text for c in tr.find_elements(By.TAG_NAME, "td")]
                for tr in d.find_elements(By.CSS_SELECTOR, "#tasks-table tr")[1:]]
        row = [r for r in rows if r and r[0] == "client/main"]
        check("the tasks table: client/main, %s misses of the program's, %s the emulator's"
              % (exp["misses"], exp["emulator_misses"]),
              row and row[0][7:9] == [exp["misses"], exp["emulator_misses"]], rows)
        em = d.find_elements(By.CSS_SELECTOR, "#misses li.miss.emulator")
        allm = d.find_elements(By.CSS_SELECTOR, "#misses li.miss")
        check("the misses listed: %s the emulator's, each saying so, of %d" % (exp["emulator_misses"], len(allm)),
              len(em) == int(exp["emulator_misses"]) and len(allm) == int(exp["misses"]) + len(em) and
              all("the emulator's miss, not the program's" in e.text for e in em), [e.text[:160] for e in allm[:2]])
finally:
    d.quit()
    shutil.rmtree(prof, ignore_errors=True)
plan()
exit_status()
