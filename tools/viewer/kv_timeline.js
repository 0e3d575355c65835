// SPDX-License-Identifier: MIT
// The viewers' timeline (kv_dom.js says which pages): one canvas of rows, a CPU's or a thread's
// or an interrupt's, each with its bars (items: [t0, t1) in a colour, an inner one thinner) and
// marks (a user event's diamond, a late instance's tick), under the view [t0, t1) of the page's
// own time; a time axis when asked (its labels the view's times plus origin: since boot);
// overlays drawn over the rows by the page (messages, arrows, cursors). The page builds the rows
// (once, or at each draw from what it holds) and owns what a click or a tip says; the timeline
// draws, maps times to pixels and back, finds what is under a point, and zooms and pans (the
// wheel at the pointer, a drag), telling the page after each (onView).
// A row's colour for a thread: its hue (kv_dom.js), grey for an idle thread, the same square
// before its name as on the CPU rows it ran on.
"use strict";
(function (K) {
  K.isIdle = function (label) { return /(^|\/)idle( \(CPU \d+\))?$/.test(label || ""); };
  K.threadColor = function (th, label) { return K.isIdle(label) ? "#d8d8d8" : K.hue(th); };
  // canvas; opt: hz, rowH (px), label (px of the names' column), axis (px above the rows for
  // the time axis, 0 none), chars (of a name shown), origin (added to a time the axis prints),
  // minHeight, pad (px below the rows), onView(kind) ("zoom" or "pan", after the view moved).
  function Timeline(canvas, opt) {
    this.canvas = canvas;
    this.opt = opt;
    this.rows = [];
    this.view = { t0: 0, t1: 1 };
    this.overlays = [];          // f(g, tl): drawn over the rows, clipped to them
    this.changed = [];           // f(tl): after each draw
    this.dragged = false;        // the last press moved the view (a click then is none)
    this.W = 0;
    this.H = 0;
  }
  K.Timeline = Timeline;
  var T = Timeline.prototype;
  T.x = function (t) { return this.opt.label + (t - this.view.t0) * (this.W - this.opt.label) / ((this.view.t1 - this.view.t0) || 1); };
  T.tAt = function (px) { return this.view.t0 + (px - this.opt.label) * (this.view.t1 - this.view.t0) / (this.W - this.opt.label); };
  T.rowTop = function (i) { return this.opt.axis + i * this.opt.rowH; };
  T.rowAt = function (py) {
    var i = Math.floor((py - this.opt.axis) / this.opt.rowH);
    return i >= 0 && i < this.rows.length ? i : -1;
  };
  // The item drawn last (on top) under (px, py), slack pixels either side; null none.
  T.itemAt = function (px, py, slack) {
    var i = this.rowAt(py), hit = null, self = this;
    if (i < 0 || px < this.opt.label) return null;
    (this.rows[i].items || []).forEach(function (it) {
      if (self.x(it.t0) - slack <= px && px <= self.x(it.t1) + slack) hit = it;
    });
    return hit;
  };
  // The mark nearest to px on the row under py, within 5 px; null none.
  T.markAt = function (px, py) {
    var i = this.rowAt(py), best = null, bd = 6, self = this;
    if (i < 0) return null;
    (this.rows[i].marks || []).forEach(function (m) { var d = Math.abs(self.x(m.t) - px); if (d < bd) { bd = d; best = m; } });
    return best;
  };
  T.size = function () {
    var o = this.opt, dpr = window.devicePixelRatio || 1;
    this.W = this.canvas.clientWidth || 1000;
    this.H = Math.max(o.minHeight || 0, o.axis + this.rows.length * o.rowH + (o.pad || 0));
    if (this.canvas.width !== Math.round(this.W * dpr)) this.canvas.width = Math.round(this.W * dpr);
    if (this.canvas.height !== Math.round(this.H * dpr)) this.canvas.height = Math.round(this.H * dpr);
    this.canvas.style.height = this.H + "px";
    var g = this.canvas.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    return g;
  };
  T.drawAxis = function (g) {
    var o = this.opt, v = this.view, span = v.t1 - v.t0 || 1, origin = o.origin || 0;
    var step = Math.pow(10, Math.floor(Math.log10(span / 8 || 1)));
    while (span / step > 12) step *= 2;
    g.fillStyle = "#555"; g.strokeStyle = "#eee";
    for (var tb = Math.ceil((v.t0 + origin) / step) * step; tb <= v.t1 + origin; tb += step) {
      var px = this.x(tb - origin);
      g.beginPath(); g.moveTo(px, o.axis - 4); g.lineTo(px, this.H); g.stroke();
      g.fillText(K.fmtTime(tb, o.hz), px + 2, 12);
    }
  };
  T.drawMark = function (g, m, y) {
    var px = this.x(m.t), h = this.opt.rowH;
    g.fillStyle = m.color;
    g.beginPath();
    if (m.shape === "tick") { // a tick across the row and a notch at its top
      g.fillRect(px - 1, y + 1, 2, h - 2);
      g.moveTo(px, y + 6); g.lineTo(px - 4, y + 1); g.lineTo(px + 4, y + 1);
    } else {                  // a diamond
      g.moveTo(px, y + 1); g.lineTo(px + 4, y + h / 2); g.lineTo(px, y + h - 1); g.lineTo(px - 4, y + h / 2);
    }
    g.closePath(); g.fill();
  };
  // A row: its bars on whole pixels (a bar narrower than one still takes one, in its own colour:
  // a short run stays visible), those marked under (an idle thread's) first, then its marks.
  T.drawRow = function (g, r, i) {
    var o = this.opt, y = this.rowTop(i), h = o.rowH, v = this.view, self = this;
    g.fillStyle = i % 2 ? "#f7f7f7" : "#fff"; g.fillRect(0, y, this.W, h);
    g.save(); g.beginPath(); g.rect(o.label, y, this.W - o.label, h); g.clip();
    function bar(it) {
      if (it.t1 < v.t0 || it.t0 > v.t1) return;
      var a = Math.round(Math.max(o.label - 1, self.x(it.t0))), b = Math.round(Math.min(self.W + 1, self.x(it.t1)));
      g.fillStyle = it.color;
      g.fillRect(a, y + (it.inner ? 6 : 2), Math.max(b - a, 1), h - (it.inner ? 12 : 4));
    }
    (r.items || []).forEach(function (it) { if (it.under) bar(it); });
    (r.items || []).forEach(function (it) { if (!it.under) bar(it); });
    (r.marks || []).forEach(function (m) { if (m.t >= v.t0 && m.t <= v.t1) self.drawMark(g, m, y); });
    g.restore();
    var tx = 4;
    if (r.swatch) { g.fillStyle = r.swatch; g.fillRect(4, y + (h - 8) / 2, 8, 8); tx = 16; }
    g.fillStyle = "#333"; g.fillText(r.label.slice(0, o.chars || 24), tx, y + h / 2 + 4);
  };
  T.draw = function () {
    var g = this.size(), o = this.opt, self = this;
    g.clearRect(0, 0, this.W, this.H);
    g.font = "11px sans-serif";
    if (o.axis) this.drawAxis(g);
    this.rows.forEach(function (r, i) { self.drawRow(g, r, i); });
    g.save(); g.beginPath(); g.rect(o.label, o.axis, this.W - o.label, this.H - o.axis); g.clip();
    this.overlays.forEach(function (f) { f(g, self); });
    g.restore();
    this.changed.forEach(function (f) { f(self); });
  };
  // A zoom by f (below 1: in) about time at (default: the middle), at least 10 cycles wide.
  T.zoom = function (f, at) {
    var v = this.view, c = at === undefined ? (v.t0 + v.t1) / 2 : at;
    var w = Math.max((v.t1 - v.t0) * f, 10);
    v.t0 = c - (c - v.t0) * w / (v.t1 - v.t0); v.t1 = v.t0 + w;
  };
  T.pan = function (dt) { this.view.t0 += dt; this.view.t1 += dt; };
  // The wheel zooms at the pointer, a drag pans; the page is told after each (opt.onView).
  T.interact = function () {
    var c = this.canvas, self = this, drag = null;
    function told(kind) { if (self.opt.onView) self.opt.onView(kind); }
    c.addEventListener("wheel", function (ev) {
      ev.preventDefault();
      var r = c.getBoundingClientRect();
      self.zoom(ev.deltaY < 0 ? 0.8 : 1.25, self.tAt(ev.clientX - r.left));
      told("zoom");
    }, { passive: false });
    c.addEventListener("mousedown", function (ev) {
      drag = { x: ev.clientX, t0: self.view.t0, t1: self.view.t1 };
      self.dragged = false;
      c.classList.add("dragging");
    });
    window.addEventListener("mouseup", function () { drag = null; c.classList.remove("dragging"); });
    window.addEventListener("mousemove", function (ev) {
      if (!drag) return;
      var dx = drag.x - ev.clientX;
      if (!self.dragged && Math.abs(dx) <= 3) return;
      self.dragged = true;
      var dt = dx * (drag.t1 - drag.t0) / (self.W - self.opt.label);
      self.view.t0 = drag.t0 + dt; self.view.t1 = drag.t1 + dt;
      told("pan");
    });
  };
})(window.KV = window.KV || {});
