#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# kevweb's live page in a real Chromium (Debian's chromium, chromedriver, python3-selenium) while
# the trace still arrives: the page's event count grows between two reads taken while the
# writer still writes (the truth: the writer's own "still writing" mark, a file it removes when
# done); meanwhile a raw socket asks for the event stream and never reads (a hostile page), and
# the browser's page must still go on to the end. At the end: each thread's CPU time on the page
# is kevstat's over the same file (kevstat --json, a separate reading of it), the page says the
# trace ended, shows kevreport's report, had no script error and was never dropped. Prints TAP.
# READY_MARK is created once the page has loaded (the writer starts then).
#   test_kevweb.py URL READY_MARK WRITING_MARK KEVSTAT_JSON
import json, os, socket, sys, time
from chromium_driver import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

url, ready, writing, js_f = sys.argv[1:5]
n = fails = 0


def check(cond, what, diag=""):
    global n, fails
    n += 1
    print("%sok %d - %s" % ("" if cond else "not ", n, what))
    if not cond:
        fails += 1
        if diag:
            print("# " + str(diag)[:600])


def events(d):
    return int(d.find_element(By.TAG_NAME, "body").get_attribute("data-events") or 0)


# The hostile page: asks for the stream with a tiny receive buffer and never reads.
host = url.split("//")[1].split("/")[0]
bad = socket.socket()
bad.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
bad.connect((host.split(":")[0], int(host.split(":")[1])))
bad.sendall(b"GET /events HTTP/1.1\r\nHost: " + host.encode() + b"\r\n\r\n")

d, prof = chromium()
try:
    d.get(url)
    WebDriverWait(d, 20).until(lambda d: d.find_element(By.ID, "status").text)
    open(ready, "w").close()
    WebDriverWait(d, 20).until(lambda d: events(d) > 0)
    a, still_a = events(d), os.path.exists(writing)
    time.sleep(1.5)
    b, still_b = events(d), os.path.exists(writing)
    check(still_a and still_b and b > a,
          "the page's events grow while the trace is being written (%d, then %d 1.5 s later)" % (a, b),
          "writer still writing: %s, %s" % (still_a, still_b))
    WebDriverWait(d, 90).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ended") == "1")
    check(not os.path.exists(writing), "the page says the trace ended once the writer is done")
    stat = json.load(open(js_f))
    want = {(t["pid"], t["tid"]): t["cpu_cycles"] for t in stat["threads"]}
    rows = d.find_elements(By.CSS_SELECTOR, "#threads-table tr[data-th]")
    got = {(int(r.get_attribute("data-pid")), int(r.get_attribute("data-tid"))): int(r.get_attribute("data-cycles")) for r in rows}
    diff = [(k, got.get(k), v) for k, v in want.items() if got.get(k) != v]
    check(len(got) == len(want) and not diff,
          "each of the %d threads' CPU time on the final page is kevstat's over the same file" % len(want),
          "page %d threads, kevstat %d; differing (thread, page, kevstat): %s" % (len(got), len(want), diff[:5]))
    check(events(d) == stat["trace"]["events"],
          "the page's event count is kevstat's (%d, %d)" % (events(d), stat["trace"]["events"]))
    WebDriverWait(d, 60).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-report") == "1")
    d.switch_to.frame(d.find_element(By.ID, "report-frame"))
    WebDriverWait(d, 30).until(lambda d: d.find_elements(By.TAG_NAME, "h1"))
    h1 = d.find_element(By.TAG_NAME, "h1").text
    d.switch_to.default_content()
    check(h1.startswith("Trace report"), "the finished trace's kevreport page shows in the page (%s)" % h1)
    check(not d.find_elements(By.ID, "errors"), "no script error on the page",
          d.find_elements(By.ID, "errors")[0].text if d.find_elements(By.ID, "errors") else "")
    check(d.find_element(By.ID, "drops").text == "", "the browser's page was never dropped (it read)",
          d.find_element(By.ID, "drops").text)
    # a click on the worst wait shows it in the timeline, paused there
    w = d.find_element(By.ID, "worst")
    if w.text != "none yet":
        w.click()
        time.sleep(0.3)
        info = d.find_element(By.ID, "view-info").text
        check("paused" in info, "a click on the worst wait shows it in the timeline, paused (%s)" % info)
    d.save_screenshot(os.environ.get("KEVWEB_SHOT", "/dev/null"))
finally:
    d.quit()
    bad.close()
    import shutil
    shutil.rmtree(prof, ignore_errors=True)
print("1..%d" % n)
sys.exit(1 if fails else 0)
