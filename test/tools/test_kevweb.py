#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# kevweb's live page in a real Chromium (Debian's chromium, chromedriver, python3-selenium) while
# the trace still arrives: the page's event count grows between two reads taken while the
# writer still writes (the truth: the writer's own "still writing" mark, a file it removes when
# done); meanwhile a raw socket asks for the event stream and never reads (a hostile page), and
# the browser's page must still go on to the end. At the end: each thread's CPU time on the page
# is kevstat's over the same file (kevstat --json, a separate reading of it), the page says the
# trace ended, shows kevreport's report, had no script error and was never dropped. Prints TAP.
#   test_kevweb.py URL --ready FILE --writing FILE --stat KEVSTAT_JSON   (a file growing)
#   test_kevweb.py LOG --console FILE --kevstat BIN --trace FILE.kev --ready FILE --qmp SOCKET
#   (make live)
#   test_kevweb.py URL --stat KEVSTAT_JSON --finished [--late N] [--no-fault]  (a finished file:
#   the end's checks only; --late: the page counts N late instances; --no-fault: its loss line
#   says no fault of the stream)
# (LOG: make live's output, where it says the page's address; --ready is then created once the
# browser has started, before make live starts; --qmp: make live's QEMU waits for a QMP client
# on SOCKET before the guest starts (-qmp ...,server=on,wait=on): the page connects once it has
# loaded, so the system runs while the page watches, however slowly the browser came up.)
# --ready: created once the page has loaded (the writer starts then); --writing: exists while
# the writer writes. --console: the system runs while its console has not said "demo system
# done"; --kevstat, --trace: kevstat --json over the trace once the page says it ended.
import argparse, json, os, re, socket, subprocess, sys, time
from chromium_driver import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ap = argparse.ArgumentParser()
ap.add_argument("url")
for o in ("--ready", "--writing", "--stat", "--console", "--kevstat", "--trace", "--late", "--qmp"):
    ap.add_argument(o)
ap.add_argument("--finished", action="store_true")
ap.add_argument("--no-fault", action="store_true")
A = ap.parse_args()
url = A.url


def running():
    if A.writing:
        return os.path.exists(A.writing)
    try:
        return "demo system done" not in open(A.console, errors="replace").read()
    except OSError:
        return True
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




def hostile(url):
    """A page that asks for the stream with a tiny receive buffer and never reads."""
    host = url.split("//")[1].split("/")[0]
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect((host.split(":")[0], int(host.split(":")[1])))
    s.sendall(b"GET /events HTTP/1.1\r\nHost: " + host.encode() + b"\r\n\r\n")
    return s


def qmp_go(path):
    """Connects to QEMU's QMP socket (QEMU starts the guest once a client is there) and keeps
    the connection; QMP's greeting read and its commands turned on."""
    s = socket.socket(socket.AF_UNIX)
    t0 = time.monotonic()
    while True:
        try:
            s.connect(path)
            break
        except OSError:
            if time.monotonic() - t0 > 60:
                raise
            time.sleep(0.05)
    s.recv(4096)
    s.sendall(b'{"execute": "qmp_capabilities"}\n')
    return s


bad = qmp = None
d, prof = chromium()
try:
    if not url.startswith("http"):  # make live's output: its line with the address
        open(A.ready, "w").close()
        log, url = url, None
        for _ in range(1200):
            m = re.search(r"^live: the web view is at (http://\S+)$", open(log).read(), re.M) if os.path.exists(log) else None
            if m:
                url = m.group(1)
                break
            time.sleep(0.1)
    bad = None if A.finished else hostile(url)
    d.get(url)
    WebDriverWait(d, 20).until(lambda d: d.find_element(By.ID, "status").text)
    if A.ready and not os.path.exists(A.ready):
        open(A.ready, "w").close()
    if A.qmp:
        qmp = qmp_go(A.qmp)
    WebDriverWait(d, 60).until(lambda d: events(d) > 0)
    if not A.finished:
        # The page's count read every 0.2 s while the writer writes: it must take at least two
        # updates before the writer's end (the first read and a larger one), however late the
        # first came (on a loaded host the path to the page lags the board by seconds).
        seen, t0 = [], time.monotonic()
        while running() and time.monotonic() - t0 < 60:
            seen.append(events(d))
            time.sleep(0.2)
        grew = [v for v in seen if v > seen[0]] if seen else []
        check(len(grew) > 0,
              "the page's events grow while the trace is being written (%s, then %s, in %d reads "
              "0.2 s apart)" % (seen[0] if seen else "none", grew[-1] if grew else "no more", len(seen)),
              "the writer ended %.1f s after the page's first events" % (time.monotonic() - t0))
    WebDriverWait(d, 120).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ended") == "1")
    check(True, "the page says the trace ended")
    if A.stat:
        stat = json.load(open(A.stat))
    else:
        stat = json.loads(subprocess.run([A.kevstat, "--json", A.trace], capture_output=True, text=True).stdout)
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
    # a click on an instance shows it in the timeline, paused around its release and end
    d.find_element(By.ID, "follow").click()
    time.sleep(0.3) # (the tables are drawn again)
    rows = d.find_elements(By.CSS_SELECTOR, "#instances-table tr.click")
    if rows:
        rel = rows[0].find_elements(By.TAG_NAME, "td")[2].text
        rows[0].click()
        time.sleep(0.3)
        info = d.find_element(By.ID, "view-info").text
        check("paused" in info, "a click on an instance shows it in the timeline, paused (%s; released at %s)" % (info, rel))
    # a click on the worst wait shows it in the timeline, paused there
    w = d.find_element(By.ID, "worst")
    if w.text != "none yet":
        w.click()
        time.sleep(0.3)
        info = d.find_element(By.ID, "view-info").text
        check("paused" in info, "a click on the worst wait shows it in the timeline, paused (%s)" % info)
    if A.late is not None:
        m = re.match(r"(\d+) instances (?:ended|judged), (\d+) late", d.find_element(By.ID, "task-sum").text)
        check(m and m.group(2) == A.late,
              "the page's late instances are the ones kevstat judges late over the whole file (%s, %s)"
              % (m.group(2) if m else "none shown", A.late), d.find_element(By.ID, "task-sum").text)
    if A.no_fault:
        loss = d.find_element(By.ID, "loss").text
        check(" 0 faults" in loss and "(last:" not in loss and "came after" not in loss,
              "the page says no fault of the stream (%s)" % loss)
    if A.finished:
        ncpu = stat["trace"]["cpus"]
        cpus = d.find_elements(By.CSS_SELECTOR, "#cpus-table tr[data-cpu]")
        check(len(cpus) == ncpu, "a row per CPU (%d, kevstat %d)" % (len(cpus), ncpu))
        print("1..%d" % n)
        raise SystemExit(0 if not fails else 1)
    # the page that never read, read now: the finished run, told what it lost and then sent a
    # fresh snapshot when its queue overflowed (drop and resync), else every update to the end
    resync = re.compile(rb"event: drop\n.*event: snap\ndata: [^\n]*\"ended\":1", re.S)
    got, bad_t = b"", time.monotonic()
    bad.settimeout(5)
    while time.monotonic() - bad_t < 20 and not resync.search(got) and b"event: end\n" not in got:
        try:
            k = bad.recv(1 << 20)
        except socket.timeout:
            break
        if not k:
            break
        got += k
    m = re.search(rb"event: drop\ndata: (\{[^\n]*\})", got)
    check(resync.search(got) if m else b"event: end\n" in got,
          "the page that never read, read at last, has the finished run (%s)" %
          ("told it lost " + m.group(1).decode() + ", then sent it afresh" if m else "no update dropped: every one"),
          got[:300])
    if os.environ.get("KEVWEB_SHOT"):
        d.save_screenshot(os.environ["KEVWEB_SHOT"])
finally:
    d.quit()
    if bad:
        bad.close()
    import shutil
    shutil.rmtree(prof, ignore_errors=True)
print("1..%d" % n)
sys.exit(1 if fails else 0)
