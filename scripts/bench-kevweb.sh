#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench: kevweb's figures (docs/web-view.md), with a page open in headless
# Chromium (Debian's chromium, chromedriver, python3-selenium).
#   kevweb_page_events_per_s: kevweb follows an empty file; once the page has loaded, kevscen's
#     sync scenario (30,000 rounds: 300 s of trace time, 3.8 million events) is appended at
#     once; the events over the wall time from the append to the page showing them all (the
#     server's reading, the model, the updates and the page's drawing together). The build
#     machine is shared: a wall-clock figure, on an idle host the best.
#   kevweb_rss_{hour,report}_mb, kevweb_page_heap_hour_mb: an hour of trace time (the same
#     scenario, 360,000 rounds: 45 million events, 1.2 GB, four times the demo's event rate)
#     read as fast as it comes with the page open: kevweb's largest resident set while it reads
#     it, then with kevreport's page of the finished file loaded, and the page's JavaScript heap
#     at the end.
#   scripts/bench-kevweb.sh HOST_DIR
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
h=$1
here=$(cd "$(dirname "$0")" && pwd)
dir=build/bench-kevweb
rm -rf "$dir" && mkdir -p "$dir"
"$h/kevscen" -r 30000 sync "$dir/burst.kev" >/dev/null
"$h/kevscen" -r 360000 sync "$dir/hour.kev" >/dev/null

# run FILE MODE: kevweb over FILE (MODE burst: an empty file, FILE appended once the page has
# loaded), the page open; prints the BENCH lines.
run() {
    local f=$dir/in-$2.kev
    if [ "$2" = burst ]; then : >"$f"; else ln -sf "$(realpath "$1")" "$f"; fi
    "$h/kevweb" -p 0 "$f" 2>"$dir/$2.err" &
    # (the page's final count is traceprinter's)
    local web=$!
    TP=$h/traceprinter /usr/bin/python3 - "$dir/$2.err" "$web" "$1" "$f" "$2" <<'PY'
import os, re, shutil, subprocess, sys, time
sys.path.insert(0, os.path.join(os.getcwd(), "test/tools"))
from chromium_driver import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
err, pid, src, f, mode = sys.argv[1:6]
total = mode == "burst" and int(re.search(r"^events: (\d+)", subprocess.run([os.environ["TP"], src], capture_output=True,
                                                           text=True).stdout, re.M).group(1))
url = None
while not url:
    m = re.search(r"(http://\S+)", open(err).read())
    url = m and m.group(1)
    time.sleep(0.05)
def rss(key="VmRSS"):
    for l in open("/proc/%s/status" % pid):
        if l.startswith(key):
            return int(l.split()[1]) / 1024
d, prof = chromium()
body = lambda: d.find_element(By.TAG_NAME, "body")
try:
    d.get(url)
    if mode == "burst":
        time.sleep(1)
        t0 = time.monotonic()
        with open(f, "ab") as o, open(src, "rb") as i:
            shutil.copyfileobj(i, o, 1 << 20)
        WebDriverWait(d, 600, 0.05).until(lambda d: int(body().get_attribute("data-events") or 0) >= total)
        dt = time.monotonic() - t0
        print("BENCH kevweb_page_events_per_s %.0f events/s" % (total / dt))
    else:
        peak, size = 0, os.path.getsize(src)
        while body().get_attribute("data-ended") != "1":
            peak = max(peak, rss())
            if os.environ.get("KEVWEB_BENCH_TRACE"):
                print("# %.1f MB at %d MB of the input" % (rss(), int(open("/proc/%s/fdinfo/3" % pid).read().split()[1]) >> 20))
            time.sleep(0.5)
        print("BENCH kevweb_rss_hour_mb %.1f MB" % max(peak, rss()))
        WebDriverWait(d, 600, 0.5).until(lambda d: body().get_attribute("data-report") == "1")
        print("BENCH kevweb_rss_report_mb %.1f MB" % rss("VmHWM"))
        print("BENCH kevweb_page_heap_hour_mb %.1f MB" % (d.execute_script("return performance.memory.usedJSHeapSize") / 2**20))
finally:
    d.quit()
    shutil.rmtree(prof, ignore_errors=True)
PY
    kill -INT "$web"
    wait "$web"
}
[ -n "${KEVWEB_BENCH_ONLY:-}" ] || run "$dir/burst.kev" burst
run "$dir/hour.kev" hour
rm -rf "$dir"
