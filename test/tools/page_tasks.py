#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# The tasks' headline as a user's page shows it, read in Chromium (chromium_driver.py): the
# report's Tasks section heading (#tasks-h) or kevweb's task summary (#task-sum) over a finished
# trace, once the page says it ended. Prints the text, or "none" with why on standard error.
#   page_tasks.py report FILE.html
#   page_tasks.py kevweb URL
import os, shutil, sys
from chromium_driver import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

kind, where = sys.argv[1:3]
d, prof = chromium()
try:
    if kind == "kevweb":
        d.get(where)
        WebDriverWait(d, 120).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ended") == "1")
        WebDriverWait(d, 20).until(lambda d: "deadline miss" in d.find_element(By.ID, "task-sum").text)
        got = d.find_element(By.ID, "task-sum").text
    else:
        d.get("file://" + os.path.abspath(where))
        WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-tasks") == "1")
        got = d.find_element(By.ID, "tasks-h").text
    print(got if got else "none")
except Exception as x:  # (the page never said it: the reason, for the test's log)
    print("none")
    sys.stderr.write("page_tasks: %s\n" % x)
finally:
    d.quit()
    shutil.rmtree(prof, ignore_errors=True)
