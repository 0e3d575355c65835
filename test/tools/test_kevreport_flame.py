#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# kevreport's flame graph driven as a user would, in a real Chromium through chromedriver
# (Debian's python3-selenium): the page's sample total is the count the caller found
# independently (the capture's ticks by QNX's traceprinter, or its STACK lines), the top
# frames under the root are the processes of the folded stacks given (kevstat --folded, whose
# lines the caller checked against addr2line) with their counts, and a click down the widest
# frame at each depth goes frame by frame, each frame's count the
# folded lines' sum under it, down the path the folded lines make widest; reset returns to
# all. Prints TAP.
#   test_kevreport_flame.py PAGE.html FOLDED_FILE SAMPLES
import shutil, sys
from chromium_driver import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

page, folded_f, samples = sys.argv[1], sys.argv[2], int(sys.argv[3])
folded = []
for l in open(folded_f):
    frames, cnt = l.rstrip("\n").rsplit(" ", 1)
    folded.append((frames.split(";"), int(cnt)))
n = fails = 0
def check(cond, what, diag=""):
    global n, fails
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, what))
    if not cond:
        fails += 1
        if diag != "":
            print("# " + str(diag)[:400])

def under(prefix):  # samples of the folded lines under a path
    return sum(c for f, c in folded if f[:len(prefix)] == prefix)

d, prof = chromium()
try:
    d.get("file://" + page)
    body = d.find_element(By.TAG_NAME, "body")
    WebDriverWait(d, 20).until(lambda d: body.get_attribute("data-flame") is not None)
    check(not d.find_elements(By.ID, "errors"), "the page loads without a script error")
    total = int(body.get_attribute("data-flame"))
    check(total == samples, "the flame graph holds %d samples, the independent count %d" % (total, samples))
    def row(depth):
        return d.find_elements(By.CSS_SELECTOR, '#flame-graph .flame-row[data-depth="%d"] .frame' % depth)
    procs = sorted((e.get_attribute("data-name"), int(e.get_attribute("data-count"))) for e in row(1))
    want = sorted({(f[0], under(f[:1])) for f, c in folded})
    check(procs == want, "the top frames are the processes with their samples: %s" % want, procs)
    # click down the widest frame: the widest folded stack, frame by frame
    path, depth, walked = [], 1, True
    while True:
        fr = row(depth)
        if not fr:
            break
        top = max(fr, key=lambda e: int(e.get_attribute("data-count")))
        name, cnt = top.get_attribute("data-name"), int(top.get_attribute("data-count"))
        path.append(name)
        top.click()
        detail = d.find_element(By.ID, "flame-detail").text
        if cnt != under(path) or not detail.startswith("%s: %d samples" % (name, cnt)):
            walked = False
            print("# %s: page %d (%s), folded %d" % (";".join(path), cnt, detail, under(path)))
            break
        depth += 1
    # the widest path by the folded lines: at each depth the child with the most samples
    widest = []
    while True:
        kids = {}
        for f, c in folded:
            if f[:len(widest)] == widest and len(f) > len(widest):
                kids[f[len(widest)]] = kids.get(f[len(widest)], 0) + c
        if not kids:
            break
        widest.append(max(sorted(kids), key=lambda k: kids[k]))
    check(walked and path == widest, "clicking the widest frames walks the folded lines' widest path: %s" % ";".join(widest),
          ";".join(path))
    zoomed = d.find_element(By.CSS_SELECTOR, '#flame-graph .flame-row[data-depth="%d"] .frame' % (depth - 1))
    check(zoomed.size["width"] > 0.9 * d.find_element(By.ID, "flame-graph").size["width"],
          "the clicked frame is zoomed to the full width")
    d.find_element(By.ID, "flame-reset").click()
    check(d.find_element(By.ID, "flame-detail").text.startswith("all: %d samples" % samples),
          "reset shows all the samples again")
finally:
    d.quit()
    shutil.rmtree(prof, ignore_errors=True)
print("1..%d" % n)
sys.exit(1 if fails else 0)
