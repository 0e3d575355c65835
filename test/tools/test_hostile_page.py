#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Pages a hostile trace must not blank or hijack, in a real Chromium (Debian's chromium,
# chromedriver, python3-selenium). Threads and processes named as markup (kevscen -M:
# "<!--<script>", "</script>", "&amp;", quotes, U+2028 and U+2029): kevreport's page of that
# capture parses into as many script elements and tables as the page of the same scenario with
# plain names (the truth: the plain page, the same template), runs its analysis, and shows every
# name as the text kevscen wrote (textContent, no element made of it); the same for kevweb's
# /report and its live page. A trace whose header does not decode, and an input that ends with
# no header: the live page says so, with the fault kevweb found, within 5 s. Prints TAP.
#   test_hostile_page.py report PLAIN.html MARKUP.html NAME...
#   test_hostile_page.py live URL NAME...       (a finished markup-named trace in kevweb)
#   test_hostile_page.py nohead URL WORDS       (WORDS: what the status line must contain)
import sys, time
from chromium_driver import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

n = fails = 0


def check(cond, what, diag=""):
    global n, fails
    n += 1
    print("%sok %d - %s" % ("" if cond else "not ", n, what))
    if not cond:
        fails += 1
        if diag:
            print("# " + str(diag)[:600])


def shape(d):
    """What the page parsed into: its script elements, tables, and markup the names would make."""
    return d.execute_script("""return [document.scripts.length, document.querySelectorAll('table').length,
        document.querySelectorAll('img, i, b').length, document.body.textContent]""")


def report(d, plain, markup, names):
    d.get("file://" + plain)
    WebDriverWait(d, 20).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-analysis") == "1")
    p = shape(d)
    d.get("file://" + markup)
    try:
        WebDriverWait(d, 20).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-analysis") == "1")
        ran = True
    except Exception:
        ran = False
    m = shape(d)
    check(ran, "kevreport, names as markup: the page's analysis runs")
    check(m[0] == p[0] and p[0] >= 6, "... %d script elements, as the plain page's %d" % (m[0], p[0]))
    check(m[1] == p[1] and p[1] >= 12, "... %d tables, as the plain page's %d" % (m[1], p[1]))
    check(m[2] == p[2], "... no element made of a name (%d img/i/b, the plain page %d)" % (m[2], p[2]))
    missing = [x for x in names if x not in m[3]]
    check(not missing, "... every name shown as its text", missing)
    check(not d.find_elements(By.ID, "errors"), "... no script error on the page")


def live(d, url, names):
    d.get(url)
    try:
        WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ended") == "1")
        ended = True
    except Exception:
        ended = False
    check(ended, "kevweb, names as markup: the live page reaches the trace's end")
    txt = d.execute_script("return document.body.textContent")
    missing = [x for x in names if x not in txt]
    check(not missing, "... every name shown as its text on the live page", missing)
    check(not d.find_elements(By.CSS_SELECTOR, "#threads img, #threads b, #threads i"),
          "... no element made of a name in the thread table")
    try:
        WebDriverWait(d, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-report") == "1")
    except Exception:
        pass
    d.get(url + "report")
    try:
        WebDriverWait(d, 20).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-analysis") == "1")
        ran = True
    except Exception:
        ran = False
    s = shape(d)
    check(ran and s[0] >= 6 and s[1] >= 12, "kevweb's /report: analysis ran, %d scripts, %d tables" % (s[0], s[1]))
    missing = [x for x in names if x not in s[3]]
    check(not missing, "... every name shown as its text", missing)


def nohead(d, url, words):
    t0 = time.monotonic()
    d.get(url)
    try:
        WebDriverWait(d, 5).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-nohead") == "1")
        said = True
    except Exception:
        said = False
    st = d.find_element(By.ID, "status").text
    check(said and all(w in st for w in words.split("|")),
          "the page says why there is no trace within %.1f s: %s" % (time.monotonic() - t0, st), words)


d, prof = chromium()
try:
    if sys.argv[1] == "report":
        report(d, sys.argv[2], sys.argv[3], sys.argv[4:])
    elif sys.argv[1] == "live":
        live(d, sys.argv[2], sys.argv[3:])
    else:
        nohead(d, sys.argv[2], sys.argv[3])
    errs = [l for l in d.get_log("browser") if l["level"] == "SEVERE" and "favicon" not in l["message"]]
    check(not errs, "no error in the browser's console", errs)
finally:
    d.quit()
    import shutil
    shutil.rmtree(prof, ignore_errors=True)
print("1..%d" % n)
sys.exit(1 if fails else 0)
