// SPDX-License-Identifier: MIT
// The flame graph module of the kevreport page (embedded after report_analysis.js by
// report_assets.c; no external code). Through window.kevReport it adds a section (#flame)
// drawing the capture's stack samples (SYSTEM STACK, tracelogger -p HZ) as an icicle flame
// graph: the root (all samples) on top, under it each process, then each stack's frames from
// the outermost down, every frame as wide as its share of the samples. The stacks come folded
// (T.stacks: "process;outer;...;inner COUNT", kevstat --folded's lines). A click on a frame
// zooms to it (it becomes the widest), "reset" back to all; the frame's count and share show
// in its title and in #flame-detail. Sets body[data-flame] to the number of samples.
"use strict";
(function () {
  var R = window.kevReport;
  if (!R) return;
  var el = R.el, lines = R.T.stacks || [];
  var sec = R.section("flame", "Flame graph of the stack samples");

  // the tree: {name, n, kids: {name: node}, order: [names]}
  function node(name) { return { name: name, n: 0, kids: {}, order: [], parent: null }; }
  var root = node("all");
  lines.forEach(function (l) {
    var sp = l.lastIndexOf(" "), cnt = parseInt(l.slice(sp + 1), 10);
    if (sp < 0 || !(cnt > 0)) return;
    var at = root;
    root.n += cnt;
    l.slice(0, sp).split(";").forEach(function (f) {
      if (!at.kids[f]) { at.kids[f] = node(f); at.kids[f].parent = at; at.order.push(f); }
      at = at.kids[f];
      at.n += cnt;
    });
  });
  if (!root.n) {
    sec.appendChild(el("p", { "class": "note", text: "No stack samples in this trace (capture with tracelogger -p HZ)." }));
    document.body.setAttribute("data-flame", "0");
    return;
  }
  var bar = el("div", { "class": "flame-bar" });
  var reset = el("button", { id: "flame-reset", text: "reset" });
  var detail = el("span", { id: "flame-detail", "class": "note" });
  bar.appendChild(reset); bar.appendChild(document.createTextNode(" ")); bar.appendChild(detail);
  sec.appendChild(bar);
  var box = el("div", { id: "flame-graph", "class": "flame" });
  sec.appendChild(box);
  var focus = root;

  function path(n) {
    var p = [];
    for (; n && n !== root; n = n.parent) p.unshift(n.name);
    return p.join(";");
  }
  function pct(n) { return (100 * n / root.n).toFixed(1) + "%"; }
  function say(n) { detail.textContent = (n === root ? "all" : n.name) + ": " + n.n + " samples, " + pct(n.n); }
  // draw: one row a depth; the focus and its ancestors full width, its subtree by share
  function draw() {
    box.textContent = "";
    var rows = [], chain = [];
    for (var a = focus; a; a = a.parent) chain.unshift(a);
    chain.forEach(function (c, d) { rows[d] = [{ n: c, left: 0, width: 1 }]; });
    (function walk(n, d, left, width) {
      var x = left;
      n.order.forEach(function (k) {
        var c = n.kids[k], w = width * c.n / n.n;
        (rows[d + 1] = rows[d + 1] || []).push({ n: c, left: x, width: w });
        walk(c, d + 1, x, w);
        x += w;
      });
    })(focus, chain.length - 1, 0, 1);
    rows.forEach(function (r, d) {
      var row = el("div", { "class": "flame-row", "data-depth": String(d) });
      r.forEach(function (f) {
        var fr = el("div", { "class": "frame", "data-name": f.n.name, "data-path": path(f.n),
          "data-count": String(f.n.n), title: f.n.name + ": " + f.n.n + " samples (" + pct(f.n.n) + ")" });
        fr.style.left = (100 * f.left) + "%";
        fr.style.width = (100 * f.width) + "%";
        fr.style.background = f.n === root ? "#bbb" : R.hue(f.n.name.length * 7 + f.n.name.charCodeAt(0));
        fr.appendChild(el("span", { text: f.n.name }));
        fr.onclick = function () { focus = f.n; say(f.n); draw(); };
        row.appendChild(fr);
      });
      box.appendChild(row);
    });
  }
  reset.onclick = function () { focus = root; say(root); draw(); };
  say(root);
  draw();
  document.body.setAttribute("data-flame", String(root.n));
})();
