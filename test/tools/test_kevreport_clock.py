#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# kevreport's page as a user reads it, in a real Chromium through chromedriver (Debian's
# python3-selenium): under its summary, how the capture's time was kept and each warning of
# the emulator's artefacts, shown (visible, on screen without scrolling) and saying what
# kevstat's "time:" and "WARNING:" lines say for the same capture (one computation, kx_emul.c).
# Prints TAP.
#   test_kevreport_clock.py PAGE.html KEVSTAT_TEXT
import shutil, sys
from chromium_driver import chromium
from tap_check import check, exit_status, plan
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

page, stat_f = sys.argv[1], sys.argv[2]
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
finally:
    d.quit()
    shutil.rmtree(prof, ignore_errors=True)
plan()
exit_status()
