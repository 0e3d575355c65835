#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# kevweb's timeline read as a user reads it, in a real Chromium (Debian's chromium, chromedriver,
# python3-selenium), over a finished capture with many messages (kevscen basic: 1,000 a second,
# its "expect flows" over its span), at the default zoom:
#  - the legend says what CPU rows show, and (zoomed in to 31 ms) each CPU row's colours are the
#    colours of the squares before the names of threads that ran (the truth: the thread
#    table's CPU times);
#  - the thread rows stay readable: turning the messages off (the toolbar's button, as a user
#    would) changes at most 15 % of any thread row's pixels (before: the lines covered them);
#  - every time column of the task tables in one unit.
# Prints TAP.   test_kevweb_view.py URL MESSAGES_A_SECOND
import sys, time
from chromium_driver import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

url, rate = sys.argv[1], float(sys.argv[2])
n = fails = 0


def check(cond, what, diag=""):
    global n, fails
    n += 1
    print("%sok %d - %s" % ("" if cond else "not ", n, what))
    if not cond:
        fails += 1
        if diag:
            print("# " + str(diag)[:600])


PIXELS = """
var c = document.getElementById('timeline'), g = c.getContext('2d');
var d = g.getImageData(0, 0, c.width, c.height).data, rows = (c.getAttribute('data-rows') || '').split(',');
var out = [];
for (var i = 0; i < rows.length; i++) {
  var px = [], sw = null;
  for (var y = i * 16 + 3; y < i * 16 + 13; y++)
    for (var x = 190; x < c.width; x++) { var k = (y * c.width + x) * 4; px.push(d[k] + ',' + d[k+1] + ',' + d[k+2]); }
  var k = ((i * 16 + 8) * c.width + 8) * 4;
  out.push({row: rows[i], px: px, swatch: d[k] + ',' + d[k+1] + ',' + d[k+2]});
}
return out;
"""

d, prof = chromium()
try:
    d.get(url)
    WebDriverWait(d, 60).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ended") == "1")
    time.sleep(0.5)
    leg = d.find_elements(By.ID, "legend-cpu")
    check(leg and "CPU rows" in leg[0].text and "colour of the thread" in leg[0].text,
          "the legend says what CPU rows show: %s" % (leg[0].text if leg else "none"))
    msgs = d.find_element(By.TAG_NAME, "body").get_attribute("data-messages") or ""
    span = d.execute_script("return document.getElementById('view-info').textContent")
    check(msgs and int(msgs.split()[0]) >= 500, "the default view holds %s messages (%s; the capture has %.0f a second)" % (msgs, span, rate))
    on = d.execute_script(PIXELS)
    d.find_element(By.ID, "messages").click()
    time.sleep(0.5)
    off = d.execute_script(PIXELS)
    d.find_element(By.ID, "messages").click()
    worst, rows = 0.0, []
    for a, b in zip(on, off):
        if a["row"] == "cpu":
            continue
        diff = sum(1 for p, q in zip(a["px"], b["px"]) if p != q) / float(len(a["px"]) or 1)
        rows.append("%s %.0f%%" % (a["row"], 100 * diff))
        worst = max(worst, diff)
    check(rows and worst <= 0.15, "the thread rows stay readable: the messages change at most %.0f %% of a row's pixels (%s)"
          % (100 * worst, ", ".join(rows)))
    # the CPU rows' colours: the swatches of threads that ran (the thread table's CPU time > 0),
    # zoomed in to 31 ms (at 2 s a switch a millisecond is narrower than a pixel)
    for _ in range(6):
        d.find_element(By.ID, "zoom-in").click()
    time.sleep(0.5)
    off = d.execute_script(PIXELS)
    ran = set(d.execute_script("""return Array.from(document.querySelectorAll('#threads-table tr[data-th]'))
        .filter(function (r) { return +r.getAttribute('data-cycles') > 0; }).map(function (r) { return r.getAttribute('data-th'); })"""))
    sw = {a["row"]: a["swatch"] for a in off if a["row"] != "cpu"}
    cpu_px = set(p for a in off if a["row"] == "cpu" for p in a["px"])
    missing = [t for t in ran if t in sw and sw[t] not in cpu_px]
    check(ran and not missing, "each thread that ran (%d) has its square's colour in the CPU rows" % len(ran),
          "%s: squares %s; CPU rows' colours %s" % (missing, sw, sorted(cpu_px)[:12]))
    units = d.execute_script("""var out = []; ['misses-table', 'instances-table', 'threads-table'].forEach(function (id) {
        var t = document.getElementById(id); if (!t) return;
        var rows = Array.from(t.querySelectorAll('tr')).slice(1);
        if (!rows.length) return;
        for (var c = 0; c < rows[0].cells.length; c++) {
          var u = {}; rows.forEach(function (r) { var m = /^-?[0-9.]+ (s|ms|us|ns)$/.exec(r.cells[c].textContent); if (m) u[m[1]] = 1; });
          if (Object.keys(u).length) out.push(id + ':' + c + ':' + Object.keys(u).join('/'));
        }
      }); return out;""")
    check(units and all("/" not in u for u in units), "every time column in one unit (%s)" % ", ".join(units))
    check(not d.find_elements(By.ID, "errors"), "no script error on the page")
finally:
    d.quit()
    import shutil
    shutil.rmtree(prof, ignore_errors=True)
print("1..%d" % n)
sys.exit(1 if fails else 0)
