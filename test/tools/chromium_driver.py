# SPDX-License-Identifier: MIT
# The headless Chromium the kevreport browser tests drive (Debian's chromium, chromedriver and
# python3-selenium): a fresh profile, no network chatter, one window size, the browser's
# console kept. chromium() returns (driver, profile directory to remove after d.quit()).
import tempfile
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def chromium():
    prof = tempfile.mkdtemp()
    o = webdriver.ChromeOptions()
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--user-data-dir=" + prof, "--window-size=1400,1000"):
        o.add_argument(a)
    o.binary_location = "/usr/bin/chromium"
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o), prof
