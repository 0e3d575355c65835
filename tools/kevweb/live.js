// SPDX-License-Identifier: MIT
// kevweb's page script (embedded by web_assets.c; no external code). Reads the server's events
// at /events (web_feed.h: snap, upd, end, report, drop) and keeps, bounded whatever the run's
// length, a window of the timeline (WINDOW records, the newest) and the latest instances; the
// aggregates (each thread's and CPU's time, counts, losses) come whole in every message.
// Draws the timeline (following the newest time, or paused, zoomed, panned), the CPU tables,
// the task instances and late ones (a click shows each in the timeline), the worst wait with
// its chain, the loss line; when the trace has ended, its final figures and kevreport's page.
// Sets body[data-events] (the events so far), body[data-ended] and body[data-report] for a
// headless browser test; script errors are listed in #errors. The viewer's parts it shares with
// kevreport's page (elements, times, state colours, the timeline) are the modules of
// tools/viewer (window.KV), served before it.
"use strict";
(function (K) {
  var WINDOW = 30000, SHOWN = 40, MAXROWS = 60;
  var el = K.el, hue = K.hue, pct = K.pct;
  function $(id) { return document.getElementById(id); }

  // ---- the model of the page ------------------------------------------------------------------
  var M = null;             // the run as the server gave it
  var prev = null;          // the last update's CPU figures, for the rates
  var view = { follow: true, paused: false, spanS: 2, t1: 0, msgs: true }; // spanS: the view's width, seconds
  var dirty = true;

  function fresh(d) {
    M = { states: d.states || (M && M.states) || [], seg: d.seg, hz: d.cps || 1e9, names: [], th: [],
          rec: [], inst: [], miss: [], seq: {}, head: d, end: null, report: null, sel: null };
    prev = null;
  }
  function hz() { return M ? M.hz : 1e9; }
  function fmtTime(cycles) { return K.fmtTime(cycles, hz()); }
  function unitFor(cycles) { return K.unitFor(cycles, hz()); }
  function fmtIn(cycles, u) { return K.fmtIn(cycles, u, hz()); }
  function stName(st) { return st === 255 ? "-" : (M.states[st] || String(st)); }
  function name(th) { return M.names[th] ? M.names[th].label : "thread " + th; }

  function apply(d) {
    if (!M || d.seg !== M.seg) fresh(d);
    M.head = d;
    (d.names || []).forEach(function (n) { M.names[n[0]] = { pid: n[1], tid: n[2], label: n[3] }; });
    (d.th || []).forEach(function (t) { M.th[t[0]] = { cpu: t[1], state: t[2], prio: t[3], since: t[4], exec: t[5] }; });
    // records are numbered: those a snapshot gave already are skipped
    function add(key, list, max) {
      var v = d[key] || [], from = d[key + "_from"] || 0, have = M.seq[key] || 0;
      for (var k = Math.max(0, have - from); k < v.length; k++) list.push(v[k]);
      M.seq[key] = Math.max(have, from + v.length);
      if (list.length > max) list.splice(0, list.length - max);
    }
    add("rec", M.rec, WINDOW);
    add("inst", M.inst, SHOWN);
    add("miss", M.miss, SHOWN);
    if (d.end) M.end = d.end;
    if (d.report) M.report = d.report;
    document.body.setAttribute("data-events", String(d.events || 0));
    dirty = true;
  }

  // ---- the stream -----------------------------------------------------------------------------
  var es = new EventSource("/events");
  es.addEventListener("snap", function (m) {
    var d = JSON.parse(m.data);
    M = null;
    if (!d.have) { fresh(d); M.states = d.states; noHead(d); return; }
    d.states = d.states || [];
    apply(d);
    stateLegend();
    if (d.end) showEnd();
    if (d.report) showReport();
  });
  es.addEventListener("upd", function (m) { apply(JSON.parse(m.data)); });
  es.addEventListener("nohead", function (m) {
    if (!M || !M.head || M.head.events === undefined) noHead(JSON.parse(m.data));
  });
  // No trace yet: why (the header does not decode, bytes before any header, the input ended
  // without one) or, with no fault, that the page waits for it.
  function noHead(d) {
    var st = $("status"), why = d.fault ? " (" + d.faults + " fault(s); the last: " + d.fault + ")" : "";
    document.body.setAttribute("data-nohead", d.fault || d.input_ended ? "1" : "0");
    if (d.input_ended)
      st.textContent = "No trace: the input ended after " + d.bytes + " bytes without a header that decodes" + why + ".";
    else if (d.fault)
      st.textContent = "No trace yet: no header decodes in the " + d.bytes + " bytes read" + why + "; still reading the input.";
    else
      st.textContent = "waiting for the trace's header... (" + (d.bytes || 0) + " bytes read)";
    st.className = "summary" + (d.fault || d.input_ended ? " loss" : "");
  }
  es.addEventListener("end", function (m) {
    var d = JSON.parse(m.data);
    if (M && d.seg === M.seg) { M.end = d; showEnd(); dirty = true; }
  });
  es.addEventListener("report", function (m) { if (M) { M.report = JSON.parse(m.data); showReport(); } });
  es.addEventListener("drop", function (m) {
    var d = JSON.parse(m.data);
    $("drops").textContent = "This page fell behind the stream: " + d.dropped + " updates dropped, " +
      d.resyncs + " time(s) started again from a fresh snapshot (the figures are whole; the timeline may have a hole).";
  });
  es.onerror = function () { if (!(M && M.end)) $("status").textContent = "connection lost: retrying..."; };

  // ---- the timeline ---------------------------------------------------------------------------
  // (the viewer's, kv_timeline.js: rows of 16 px under a 190 px names' column, no axis; the
  // page keeps its own view: following the newest time, or paused, zoomed, panned)
  var canvas = $("timeline"), THIN = 16;
  var tl = new K.Timeline(canvas, { rowH: 16, label: 190, axis: 0, chars: 28, minHeight: 60, pad: 20,
    onView: function (kind) { // the wheel (at the pointer) or a drag moved the timeline's view
      if (!M) return;
      if (kind === "pan" || !view.follow) view.follow = false, view.t1 = tl.view.t1;
      view.spanS = Math.max(1e-6, Math.min(3600, (tl.view.t1 - tl.view.t0) / M.hz));
      buttons(); dirty = true;
    } });
  tl.interact();
  var legend = $("legend"), legendStates = {};
  // The states' legend: those given a colour, and any other the page has shown (kv_states.js).
  function stateLegend() {
    var box = $("legend-states");
    box.textContent = "";
    K.stateLegend(box, M ? M.states : [], legendStates);
  }
  legend.appendChild(el("span", { id: "legend-states", style: "margin-right:0" }));
  legend.appendChild(el("span", {}, [el("i", { style: "background:#1f3a93" }), "message (dense: one line in " + THIN + " pixels, shared by the sender-receiver pairs, faint)"]));
  legend.appendChild(el("span", {}, [el("i", { style: "background:#e00" }), "late instance (a mark on its thread's row at its end)"]));
  legend.appendChild(el("span", { id: "legend-cpu" }, [el("i", { style: "background:linear-gradient(90deg," + hue(1) + "," + hue(2) + "," + hue(3) + ")" }),
    "CPU rows: who ran there, in the colour of the thread (the square before its name), not a state"]));

  // Rows: the CPUs, then the threads with something in the view other than being dead, or
  // alive now (a thread long dead leaves the timeline).
  function rows(t0, t1) {
    var cpus = [], r = [], shown = {};
    for (var c = 0; c < (M.head.ncpu || 1); c++) { cpus.push({ label: "CPU " + c, cpu: c, items: [] }); }
    M.rec.forEach(function (x) {
      if ((x[0] === 0 ? x[3] : x[4]) < t0 || x[2] > t1 || (x[0] === 0 && x[4] === 0)) return;
      shown[x[1]] = 1;
      if (x[0] === 1) shown[x[5]] = 1;
    });
    M.th.forEach(function (t, i) { if (t && t.state !== 255 && t.state !== 0) shown[i] = 1; });
    M.names.forEach(function (n, i) {
      if (n && shown[i]) r.push({ label: n.label, th: i, swatch: K.threadColor(i, n.label), items: [], marks: [] });
    });
    return cpus.concat(r);
  }
  // Each row's bars: the threads' states, and on the CPU rows who ran there; a late instance's
  // tick on its thread's row.
  function fill(R, rowOf, cpuRow, now) {
    function bar(row, a, b, color, what, under) {
      if (row !== undefined) R[row].items.push({ t0: a, t1: b, color: color, what: what, under: under });
    }
    M.rec.forEach(function (r) {
      if (r[0] !== 0) return;
      var st = stName(r[4]);
      if (!legendStates[st]) legendStates[st] = 1, stateLegend();
      bar(rowOf[r[1]], r[2], r[3], K.stateColor(st), { th: r[1], st: st, t0: r[2], t1: r[3], prio: r[6] });
      if (r[4] === 1 && r[5] >= 0) bar(cpuRow[r[5]], r[2], r[3], K.threadColor(r[1], name(r[1])),
        { th: r[1], st: "RUNNING on CPU " + r[5], t0: r[2], t1: r[3] }, K.isIdle(name(r[1])));
    });
    M.th.forEach(function (t, i) { // each thread's state still open, to now
      if (t && t.state !== 255 && t.state !== 0 && t.since) bar(rowOf[i], t.since, now, K.stateColor(stName(t.state)), { th: i, st: stName(t.state) + " (still)", t0: t.since, t1: now });
    });
    M.miss.forEach(function (i) { if (rowOf[i[1]] !== undefined) R[rowOf[i[1]]].marks.push({ t: i[4], color: "#e00", shape: "tick" }); });
  }
  function draw() {
    if (!M || !M.head) return;
    var now = M.head.now || 0;
    if (view.follow && !view.paused) view.t1 = now;
    var span = view.spanS * M.hz;
    if (view.follow && !view.paused && M.rec.length && now - M.rec[0][2] > 0) span = Math.min(span, now - M.rec[0][2]);
    var t1 = view.t1, t0 = t1 - span, R = rows(t0, t1), rowOf = {}, cpuRow = {};
    R.forEach(function (r, i) { if (r.th !== undefined) rowOf[r.th] = i; else cpuRow[r.cpu] = i; });
    canvas.setAttribute("data-rows", R.map(function (r) { return r.th === undefined ? "cpu" : r.th; }).join(","));
    fill(R, rowOf, cpuRow, now);
    tl.rows = R;
    tl.view.t0 = t0; tl.view.t1 = t1;
    tl.overlays = [function (g) {
      if (view.msgs) drawMessages(g, t0, t1, rowOf);
      if (M.sel) { // the instance or wait clicked
        g.fillStyle = "rgba(31,95,191,0.15)";
        g.fillRect(tl.x(M.sel[0]), 0, Math.max(2, tl.x(M.sel[1]) - tl.x(M.sel[0])), tl.H);
      }
    }];
    tl.draw();
    $("view-info").textContent = fmtTime(t0) + " to " + fmtTime(t1) + " (" + fmtTime(t1 - t0) + ")" +
      (view.paused ? ", paused" : view.follow ? ", following" : "");
  }
  // Messages from sender to receiver and back. Dense ones (more than one in THIN pixels) are
  // thinned per pixel: with n sender-receiver pairs in the view, one line per n * THIN pixels
  // of each pair (one in THIN pixels in all, whatever the pairs), faint, so that the thread rows
  // they cross stay readable and every pair still shows; a click on a row names what is there.
  function drawMessages(g, t0, t1, rowOf) {
    var inView = M.rec.filter(function (r) { return r[0] === 1 && r[4] >= t0 && r[2] <= t1; });
    var dense = inView.length * THIN > (tl.W - tl.opt.label), seen = {}, mid = tl.opt.rowH / 2, pairs = {};
    inView.forEach(function (r) { pairs[rowOf[r[1]] + ":" + rowOf[r[5]]] = 1; });
    var bin = THIN * Math.max(1, Object.keys(pairs).length);
    g.strokeStyle = dense ? "rgba(31,58,147,0.3)" : "#1f3a93"; g.lineWidth = 1;
    inView.forEach(function (r) {
      var a = rowOf[r[1]], b = rowOf[r[5]];
      if (a === undefined || b === undefined) return;
      var key = a + ":" + b + ":" + Math.floor(tl.x(r[2]) / bin);
      if (dense && seen[key]) return;
      seen[key] = 1;
      g.beginPath(); g.moveTo(tl.x(r[2]), tl.rowTop(a) + mid); g.lineTo(tl.x(r[3]), tl.rowTop(b) + mid);
      if (r[4] > r[3]) g.lineTo(tl.x(r[4]), tl.rowTop(a) + mid);
      g.stroke();
    });
    document.body.setAttribute("data-messages", inView.length + (dense ? " thinned" : ""));
  }
  function go(a, b) { // show [a, b] in the timeline, paused there
    var pad = Math.max((b - a) * 0.5, M.hz / 1000);
    view.follow = false; view.paused = true; view.spanS = ((b - a) + 2 * pad) / M.hz; view.t1 = b + pad;
    M.sel = [a, b]; buttons(); dirty = true;
    $("timeline-section").scrollIntoView();
  }
  function buttons() {
    $("pause").textContent = view.paused ? "go on" : "pause";
    $("pause").className = view.paused ? "on" : "";
    $("follow").className = view.follow ? "on" : "";
  }
  $("pause").onclick = function () { view.paused = !view.paused; if (!view.paused) view.follow = true; buttons(); dirty = true; };
  $("follow").onclick = function () { view.follow = true; view.paused = false; M && (M.sel = null); buttons(); dirty = true; };
  function zoom(f) { // the buttons: about the middle, or the newest time while following
    if (!M) return;
    var mid = view.t1 - view.spanS * M.hz / 2;
    view.spanS = Math.max(1e-6, Math.min(3600, view.spanS * f));
    if (!view.follow) view.t1 = mid + view.spanS * M.hz / 2;
    dirty = true;
  }
  $("messages").onclick = function () { view.msgs = !view.msgs; this.className = view.msgs ? "on" : ""; dirty = true; };
  $("zoom-in").onclick = function () { zoom(0.5); };
  $("zoom-out").onclick = function () { zoom(2); };
  canvas.addEventListener("click", function (ev) {
    if (!M || tl.dragged) return;
    var b = canvas.getBoundingClientRect(), it = tl.itemAt(ev.clientX - b.left, ev.clientY - b.top, 1);
    if (!it) return;
    var w = it.what;
    $("detail").textContent = name(w.th) + ": " + w.st + " from " + fmtTime(w.t0) + " to " + fmtTime(w.t1) +
      " (" + fmtTime(w.t1 - w.t0) + ")" + (w.prio >= 0 ? ", priority " + w.prio : "");
  });

  // ---- tables ---------------------------------------------------------------------------------
  function table(id, head, rows) { // (into box id, as id-table)
    var box = $(id); box.textContent = "";
    box.appendChild(K.table(head, rows, { "class": "kv-table", id: id + "-table" }));
  }
  var tr = K.tr;
  function tables() {
    var h = M.head, span = (h.now || 0) - (h.first || 0), dt = prev ? (h.now - prev.now) : 0;
    var final = M.end ? M.end.cpu : null, list = [];
    M.names.forEach(function (n, i) {
      if (!n) return;
      var t = M.th[i] || { cpu: 0, state: 255, prio: -1, exec: 0 }, cpu = final ? final[i] : t.cpu;
      var d = prev && prev.cpu[i] !== undefined ? cpu - prev.cpu[i] : 0;
      var x = M.end && M.end.exec ? M.end.exec[i] : t.exec || 0;
      list.push([i, n, t, cpu, d, x]);
    });
    list.sort(function (a, b) { return b[3] - a[3]; });
    // while running, the threads that ran most (a long run makes thousands); at the end, all
    var more = M.end ? 0 : Math.max(0, list.length - MAXROWS);
    if (more) list = list.slice(0, MAXROWS);
    $("threads-more").textContent = more ? more + " threads more, with less CPU time (all of them once the trace has ended)" : "";
    var ucpu = unitFor(list.map(function (r) { return r[3]; }));
    // the CPUs run in turn by the emulator: of a thread's CPU time, what its CPU executed
    var turns = !!h.turns;
    $("threads-turns").textContent = turns ? "The CPUs ran in turn (the emulator's exact mode): of a thread's CPU time, " +
      "\"executed\" is its CPU's turns, each CPU with work taking an equal turn; the rest was other CPUs'." : "";
    table("threads", ["thread", "PID", "TID", "state", "prio", "CPU time"].concat(turns ? ["executed"] : []).concat(["CPU % of the run", "CPU % now"]),
      list.map(function (r) {
        var row = tr([r[1].label, r[1].pid, r[1].tid, M.end ? "-" : stName(r[2].state), r[2].prio, fmtIn(r[3], ucpu)]
          .concat(turns ? [fmtIn(r[5], ucpu)] : []).concat([pct(r[3], span), dt > 0 ? pct(r[4], dt) : "-"]),
          { "data-th": r[0], "data-pid": r[1].pid, "data-tid": r[1].tid, "data-cycles": r[3], "data-exec": r[5] });
        return row;
      }));
    var cprev = prev ? prev.cpus : null;
    table("cpus", ["CPU", "busy", "idle", "unknown", "busy now"], (h.cpus || []).map(function (c, i) {
      var tot = c[0] + c[1] + c[2], db = cprev && cprev[i] ? c[0] - cprev[i][0] : 0;
      return tr(["CPU " + i, pct(c[0], tot), pct(c[1], tot), pct(c[2], tot), dt > 0 ? pct(db, dt) : "-"], { "data-cpu": i, "data-busy": c[0] });
    }));
    prev = { now: h.now, cpu: list.reduce(function (o, r) { o[r[0]] = r[3]; return o; }, {}), cpus: h.cpus };
    function instRows(v, late) { // each time column in one unit (its largest value's)
      var ur = unitFor(v.map(function (i) { return i[2]; })), up = unitFor(v.map(function (i) { return i[4] - i[2]; }));
      var ue = unitFor(v.map(function (i) { return i[5]; })), ud = unitFor(v.map(function (i) { return i[6]; }));
      return v.slice().reverse().map(function (i) {
        var row = tr([i[0], name(i[1]), fmtIn(i[2], ur), fmtIn(i[4] - i[2], up), fmtIn(i[5], ue),
          i[6] ? fmtIn(i[6], ud) : "-", i[7] === 2 ? "late (the emulator's)" : i[7] ? "late" : "met"], { "class": "click" + (i[7] || late ? " late" : ""), "data-id": i[0] });
        row.onclick = function () { go(i[2], i[4]); };
        return row;
      });
    }
    var ts = h.tasks || { instances: 0, late: 0, by: [] };
    // the tasks named: those judged with their late count, those judged by no deadline
    var lateBy = (ts.by || []).filter(function (b) { return b[2] & 1; }).map(function (b) { return name(b[0]) + " " + b[1]; });
    var notJudged = (ts.by || []).filter(function (b) { return b[2] === 2; }).map(function (b) { return name(b[0]); });
    var named = (lateBy.length ? ": " + lateBy.join(", ") : "") +
      (notJudged.length ? "; not judged (event-driven, no deadline given: kevweb --deadline TASK=TIME): " + notJudged.join(", ") : "");
    $("task-sum").textContent = ts.whole ? ts.instances + " instances judged, " + ts.late + " late: " + (ts.headline || named) +
      " (a finished file, read whole: kevstat's verdicts over it, against each task's given deadline or period, else a" +
      " periodic task's timer's interval; an instance still open past its deadline at the end is late; the emulator's misses are marked)" :
      ts.instances + " instances ended, " + ts.late + " late" + named +
      " (live: past the task's given deadline or period, else a periodic task's timer's interval so far;" +
      " the verdicts over the whole run are in the report of the finished trace below)";
    var head = ["#", "task", "release", "response", "execution", "deadline", ""];
    table("misses", head, instRows(M.miss, true));
    table("instances", head, instRows(M.inst, false));
    var w = h.worst;
    $("worst").textContent = w ? "at " + fmtTime(w.t0) + ": " + w.text + " (click: show it)" : "none yet";
    $("worst").onclick = w ? function () { go(w.t0, w.t0 + w.len); } : null;
  }
  function lines() {
    var h = M.head, l = h.loss || {};
    $("title").textContent = "Live trace" + (h.board ? ": " + h.board : "");
    $("status").className = M.end ? "summary ended" : "summary";
    $("status").textContent = (M.end ? "The trace ended: " : "Running: ") + h.events + " events over " +
      fmtTime((h.now || 0) - (h.first || 0)) + ", " + (h.ncpu || 1) + " CPU(s), now " + fmtTime(h.now || 0) + " after boot";
    var s = "loss: " + (l.events || 0) + " events lost" + (l.why ? " (" + l.why + ")" : "") + "; the stream: " +
      (l.buffers_lost || 0) + " buffers lost in transit, " + (l.faults || 0) + " faults" + (l.fault ? " (last: " + l.fault + ")" : "");
    $("loss").textContent = s;
    $("loss").className = "summary" + (l.events || l.buffers_lost || l.faults ? " loss" : "");
  }
  function showEnd() {
    document.body.setAttribute("data-ended", "1");
    $("ended-box").innerHTML = "";
    $("ended-box").appendChild(el("p", { "class": "ended", text: "The trace has ended: this page keeps the finished run " +
      "(the CPU times below are the model's over the whole trace, as kevstat gives them) until kevweb is stopped." }));
  }
  function showReport() {
    var r = M.report, box = $("report");
    box.textContent = "";
    if (r.url) {
      box.appendChild(el("a", { href: r.url, target: "_blank", id: "report-link", text: "kevreport's report of the finished trace" }));
      if (r.why) box.appendChild(el("span", { "class": "loss", text: " (" + r.why + ")" }));
      box.appendChild(el("iframe", { id: "report-frame", src: r.url }));
    } else {
      box.textContent = "no report: " + r.why;
    }
    document.body.setAttribute("data-report", r.url ? "1" : "0");
  }

  // ---- the loop: redraw when something changed (not while paused: the view is kept) ------------
  function frame() {
    if (dirty && M && M.head && M.head.events !== undefined) {
      dirty = false;
      try { lines(); tables(); draw(); } catch (e) { K.report("script error: " + e); }
    }
    requestAnimationFrame(frame);
  }
  buttons();
  requestAnimationFrame(frame);
})(window.KV);
