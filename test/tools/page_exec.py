#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# The executed share of one thread's CPU time as a user's page shows it, read in Chromium
# (chromium_driver.py): kevweb's page over a finished trace (its thread table's row, once the
# page says the trace ended) or kevreport's page (its CPU time table). Prints the cycles, or
# "none" with why on standard error.
#   page_exec.py kevweb URL THREAD     (THREAD: the row's label, e.g. exechog/main)
#   page_exec.py report FILE.html THREAD
import os, shutil, sys
from chromium_driver import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

kind, where, name = sys.argv[1:4]
d, prof = chromium()
try:
    if kind == "kevweb":
        d.get(where)
        WebDriverWait(d, 120).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ended") == "1")
        WebDriverWait(d, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#threads-table tr[data-exec]"))
        rows = [r for r in d.find_elements(By.CSS_SELECTOR, "#threads-table tr[data-exec]")
                if r.find_elements(By.TAG_NAME, "td")[0].text == name]
        got = rows[0].get_attribute("data-exec") if rows else None
        shown = "executed" in [h.text for h in d.find_elements(By.CSS_SELECTOR, "#threads-table th")]
    else:
        d.get("file://" + os.path.abspath(where))
        WebDriverWait(d, 30).until(lambda d: d.find_elements(By.TAG_NAME, "h1"))
        cells = [c for c in d.find_elements(By.CSS_SELECTOR, "span[data-exec]") if c.get_attribute("data-thread") == name]
        got = cells[0].get_attribute("data-exec") if cells else None
        shown = bool(cells) and cells[0].text != ""
    if got is None or not shown:
        print("none")
        sys.stderr.write("page_exec: %s's executed share is not shown (row %s, column shown %s)\n" % (name, got, shown))
    else:
        print(got)
finally:
    d.quit()
    shutil.rmtree(prof, ignore_errors=True)
