#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# kevreport's fault finding, in a real Chromium through chromedriver (Debian's python3-selenium),
# against what the caller found by other means (the capture's FAULT and addr2line's functions):
# one finding naming the thread, the signal, the kind, the address, the pc and the function
# holding it, its stack listed frame by frame as the caller's functions, and after its "show"
# button a marker on the faulting thread's row of the timeline. Prints TAP from number FIRST.
#   test_kevreport_fault.py PAGE.html FIRST SIGNAL KIND ADDR PC FUNCTION "FRAME FUNCTIONS..."
import re, shutil, sys
from chromium_driver import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

page, n = sys.argv[1], int(sys.argv[2]) - 1
sig, kind, addr, pc, func, frames = sys.argv[3:9]


def check(cond, what, diag=""):
    global n
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, what))
    if not cond and diag != "":
        print("# " + str(diag)[:400])


d, prof = chromium()
try:
    d.get("file://" + page)
    body = d.find_element(By.TAG_NAME, "body")
    WebDriverWait(d, 20).until(lambda d: body.get_attribute("data-analysis") is not None)
    items = d.find_elements(By.CSS_SELECTOR, "#faults-list > li.fault")
    text = items[0].find_element(By.CSS_SELECTOR, ".text").text if items else ""
    want = "killed by %s (%s at %s)" % (sig, kind, addr)
    m = re.search(r" in [^`]*`([^+ ]*)", text)
    check(len(items) == 1 and want in text and (" pc %s " % pc) in text and m and m.group(1) == func,
          "kevreport: one fault finding: %s, pc %s in %s" % (want, pc, func), text)
    got = [re.sub(r"^[^`]*`|\+0x[0-9a-f]*$", "", li.text)
           for li in d.find_elements(By.CSS_SELECTOR, "#fault-0 ol.fault-stack li")]
    check(" ".join(got) == frames, "kevreport: the finding's stack names %s" % frames, got)
    errors = [e for e in d.get_log("browser") if e.get("level") == "SEVERE"]
    if items:
        items[0].find_element(By.CSS_SELECTOR, "button.show").click()
        WebDriverWait(d, 10).until(lambda d: d.find_element(By.ID, "timeline")
                                   .get_attribute("data-fault-marks") is not None)
    marks = d.find_element(By.ID, "timeline").get_attribute("data-fault-marks")
    check(marks == "1" and not errors,
          "kevreport: after 'show', one fault marker on the thread's row, no script error",
          "marks %s, errors %s" % (marks, errors))
finally:
    d.quit()
    shutil.rmtree(prof, ignore_errors=True)
