// SPDX-License-Identifier: MIT
// The viewers' shared helpers (kevweb's live page and kevreport's page, one viewer: served by
// kevweb, embedded by kevreport, each before its own script): the elements they build (el, tr,
// table), the times they print (fmtTime; a column of times in one unit: unitFor, fmtIn), a
// thread's colour (hue: the same thread, the same colour on both pages), shares (pct), and the
// script errors listed in #errors for a headless browser's test. Everything hangs on window.KV.
"use strict";
(function (K) {
  K.el = function (tag, attrs, kids) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === "text") e.textContent = attrs[k]; else e.setAttribute(k, attrs[k]);
    }
    (kids || []).forEach(function (c) { e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  };
  // A thread's colour by its index (golden-angle hues: neighbours differ).
  K.hue = function (i) { return "hsl(" + ((i * 137.508) % 360).toFixed(0) + ",60%,55%)"; };
  K.pct = function (x, tot) { return tot > 0 ? (100 * x / tot).toFixed(1) + "%" : "-"; };
  // cycles at hz as the tools print a time: "0", "840 ns", "12.5 us", "3.25 ms", "1.500 s".
  K.fmtTime = function (cycles, hz) {
    var s = cycles / hz, a = Math.abs(s);
    if (a === 0) return "0";
    if (a < 1e-6) return (s * 1e9).toFixed(0) + " ns";
    if (a < 1e-3) return (s * 1e6).toFixed(a < 1e-5 ? 2 : 1) + " us";
    if (a < 1) return (s * 1e3).toFixed(a < 1e-2 ? 3 : 2) + " ms";
    return s.toFixed(3) + " s";
  };
  // One unit for a column of times: the one fmtTime gives its largest value, with its digits.
  var UNITS = [[1, "s", 3], [1e3, "ms", 3], [1e6, "us", 1], [1e9, "ns", 0]];
  K.unitFor = function (cycles, hz) {
    var a = Math.max.apply(null, [0].concat(cycles.map(Math.abs))) / hz;
    return a >= 1 || a === 0 ? UNITS[0] : a >= 1e-3 ? UNITS[1] : a >= 1e-6 ? UNITS[2] : UNITS[3];
  };
  K.fmtIn = function (cycles, u, hz) { return (cycles / hz * u[0]).toFixed(u[2]) + " " + u[1]; };
  K.tr = function (cells, attrs) {
    return K.el("tr", attrs || {}, cells.map(function (c) {
      return c instanceof Node ? K.el("td", {}, [c]) : K.el("td", { text: String(c) });
    }));
  };
  // A table: a header row, then each row (its cells, or a row K.tr made).
  K.table = function (head, rows, attrs) {
    var t = K.el("table", attrs || { "class": "kv-table" });
    t.appendChild(K.el("tr", {}, head.map(function (h) { return K.el("th", { text: h }); })));
    rows.forEach(function (r) { t.appendChild(r instanceof Node ? r : K.tr(r)); });
    return t;
  };
  // Script errors, listed in #errors (made at the top of the page at the first).
  K.report = function (msg) {
    var e = document.getElementById("errors");
    if (!e) { e = document.createElement("div"); e.id = "errors"; document.body.prepend(e); }
    e.textContent += msg + "\n";
  };
  window.addEventListener("error", function (ev) { K.report("script error: " + ev.message); });
})(window.KV = window.KV || {});
