// SPDX-License-Identifier: MIT
// Script of the kevreport HTML page (embedded by report_assets.c; no external code). Reads
// the JSON in #kev-data (kx_stats_json's "stats" and kevreport's "timeline") and builds the
// page: a canvas timeline with zoom (wheel, buttons, + and - keys) and pan (drag, arrow
// keys), then tables and power-of-two histograms. Sets body[data-ready] when done; script
// errors are listed in #errors so that a headless browser test can see them. The viewer's
// parts it shares with kevweb's live page (elements, times, state colours, the timeline) are
// the modules of tools/viewer (window.KV), embedded before it.
"use strict";
(function (K) {
  var D = JSON.parse(document.getElementById("kev-data").textContent);
  var S = D.stats, T = D.timeline, hz = S.trace.cycles_per_sec || 1000000;

  // ---- helpers ---------------------------------------------------------------------------
  var el = K.el, hue = K.hue, stateColor = K.stateColor;
  function fmtTime(cycles) { return K.fmtTime(cycles, hz); }
  function pct(x, tot) { return tot ? K.pct(x, tot) : "-"; }
  function table(head, rows) { return K.table(head, rows); }
  var section = function (id, title) {
    var s = el("section", { id: id }, [el("h2", { text: title })]);
    document.body.appendChild(s);
    return s;
  };

  // ---- histograms (SVG bars, one per power-of-two bucket) -----------------------------------
  function hist(title, d) {
    var box = el("div", { "class": "hist" }, [el("div", { "class": "title", text: title })]);
    if (!d || !d.n) { box.appendChild(el("div", { "class": "note", text: "no samples" })); return box; }
    box.appendChild(el("div", { "class": "note",
      text: "n " + d.n + ", min " + fmtTime(d.min) + ", mean " + fmtTime(d.mean) + ", max " + fmtTime(d.max) }));
    var byLo = {}, los = d.hist.map(function (h) { byLo[h[0]] = h[1]; return h[0]; });
    var lo = Math.min.apply(null, los), hi = Math.max.apply(null, los), buckets = [];
    for (var v = lo; ; v = v ? v * 2 : 1) { buckets.push([v, byLo[v] || 0]); if (v >= hi) break; }
    var W = Math.max(160, buckets.length * 34), H = 110, max = Math.max.apply(null, buckets.map(function (b) { return b[1]; }));
    var ns = "http://www.w3.org/2000/svg", svg = document.createElementNS(ns, "svg");
    svg.setAttribute("width", W); svg.setAttribute("height", H);
    buckets.forEach(function (b, i) {
      var bw = W / buckets.length, h = max ? (H - 34) * b[1] / max : 0;
      var r = document.createElementNS(ns, "rect");
      r.setAttribute("x", i * bw + 2); r.setAttribute("y", H - 20 - h);
      r.setAttribute("width", bw - 4); r.setAttribute("height", Math.max(h, b[1] ? 1 : 0));
      r.setAttribute("fill", "#4a7fd6");
      var tt = document.createElementNS(ns, "title"); tt.textContent = ">= " + fmtTime(b[0]) + ": " + b[1];
      r.appendChild(tt); svg.appendChild(r);
      var c = document.createElementNS(ns, "text");
      c.setAttribute("x", i * bw + bw / 2); c.setAttribute("y", H - 23 - h); c.setAttribute("text-anchor", "middle");
      c.textContent = b[1] || ""; svg.appendChild(c);
      var l = document.createElementNS(ns, "text");
      l.setAttribute("x", i * bw + bw / 2); l.setAttribute("y", H - 6); l.setAttribute("text-anchor", "middle");
      l.textContent = fmtTime(b[0]); svg.appendChild(l);
    });
    box.appendChild(svg);
    return box;
  }

  // ---- header ---------------------------------------------------------------------------------
  var tr = S.trace, span = tr.last - tr.first;
  document.body.appendChild(el("h1", { text: "Trace report" + (tr.board ? ": " + tr.board : "") }));
  if (tr.damaged)
    document.body.appendChild(el("p", { "class": "damaged", id: "damaged", text: "This file is damaged: " +
      tr.damaged.error + ". Everything below covers only the events before byte offset " +
      tr.damaged.offset + "; the events and losses after it are unknown." }));
  document.body.appendChild(el("p", { "class": "summary" }, [
    el("b", { text: String(tr.events) }), " events over ", el("b", { text: fmtTime(span) }),
    ", " + hz + " cycles/s, " + tr.cpus + " CPU(s), ",
    el("b", { "class": tr.lost || tr.damaged ? "loss" : "", text: String(tr.lost) }),
    tr.damaged ? " lost events before the damage (after it: unknown)" : " lost events",
    // a process's bad user-event ring records: its doing, shown apart from losses
    tr.rejected ? ", " + tr.rejected + " records of processes' user-event rings rejected (not lost)" : "",
    tr.timer_pulses_lost ? ", " + (tr.lost ? "at least " : "") + tr.timer_pulses_lost + " timer pulses lost (TIMER_LOST events: the program's, not the trace's" +
      (tr.lost ? "; lost events may hide more" : "") + ")" : ""]));
  // one time base on the whole page, kevstat's: time since boot
  document.body.appendChild(el("p", { "class": "note", id: "time-base", text: "Every time on this page counts from boot, as kevstat's do; the trace's first event came " +
    fmtTime(tr.first) + " after boot, its last " + fmtTime(tr.last) + "." }));
  // How the capture's time was kept, and what the emulator did to it (kx_emul.c's sentences,
  // kevstat's "time:" and "WARNING:" lines).
  if (S.clock) {
    document.body.appendChild(el("p", { "class": "summary", id: "clock", text: "Time: " + S.clock.says + "." }));
    S.clock.warnings.forEach(function (w) {
      document.body.appendChild(el("p", { "class": "emul-warning", text: "Warning: " + w + "." }));
    });
  }

  // ---- timeline -------------------------------------------------------------------------------
  var tsec = section("timeline-section", "Timeline");
  var info = el("span", { id: "view-info" });
  var bar = el("div", { "class": "toolbar" }, [
    el("button", { id: "zoom-in", text: "+" }), el("button", { id: "zoom-out", text: "\u2212" }),
    el("button", { id: "zoom-reset", text: "reset" }), info,
    el("span", { text: "wheel: zoom, drag: pan, click a bar for details" })]);
  var detail = el("div", { id: "user-detail", "class": "note" });
  var canvas = el("canvas", { id: "timeline" }), tip = el("div", { id: "tip" });
  tsec.appendChild(bar); tsec.appendChild(canvas); tsec.appendChild(detail); document.body.appendChild(tip);
  var legend = el("div", { "class": "legend", id: "legend" });
  var used = {}; // the states the timeline shows (a state not given a colour still has one)
  T.seg.forEach(function (s) { used[T.states[s[3]]] = 1; });
  K.stateLegend(legend, T.states, used);
  legend.appendChild(el("span", {}, [el("i", { style: "background:#e74c3c" }), "interrupt"]));
  legend.appendChild(el("span", {}, [el("i", { style: "background:#0003;border-color:#c00" }), "lost events"]));
  legend.appendChild(el("span", {}, [el("i", { style: "background:#1f3a93" }), "message flow"]));
  legend.appendChild(el("span", {}, [el("i", { style: "background:#8e24aa" }), "user event (click: its value)"]));
  legend.appendChild(el("span", { id: "legend-cpu" }, [el("i", { style: "background:linear-gradient(90deg," + hue(1) + "," + hue(2) + "," + hue(3) + ")" }),
    "CPU rows: who ran there, in the colour of the thread (the square before its name), not a state"]));
  tsec.appendChild(legend);
  if (T.cut) tsec.appendChild(el("p", { "class": "note", text: "timeline cut after the first records: " + T.cut + " later state segments not shown (kevreport --max-segments)" }));

  // The timeline (the viewer's, kv_timeline.js): rows of 18 px under a time axis of 22 (its
  // labels since boot), a 150 px names' column. Rows: CPUs, then threads, then interrupts.
  var RH = 18, AXIS = 22, LABEL = 150;
  var tl = new K.Timeline(canvas, { hz: hz, rowH: RH, label: LABEL, axis: AXIS, chars: 22, origin: tr.first, pad: 4,
    onView: function () { tl.draw(); } });
  var rows = tl.rows, cpuRow = {}, thRow = {}, irqRow = {};
  T.seg.forEach(function (s) { if (s[3] === 1 && s[4] >= 0 && !(s[4] in cpuRow)) cpuRow[s[4]] = -1; });
  Object.keys(cpuRow).sort(function (a, b) { return a - b; }).forEach(function (c) {
    cpuRow[c] = rows.length; rows.push({ label: "CPU " + c, kind: "cpu", items: [] });
  });
  T.threads.forEach(function (t, i) {
    thRow[i] = rows.length; rows.push({ label: t.name, kind: "thread", swatch: K.threadColor(i, t.name), items: [], marks: [] });
  });
  (T.user || []).forEach(function (u) { if (u[0] in thRow) rows[thRow[u[0]]].marks.push({ t: u[1], color: "#8e24aa", shape: "diamond", u: u }); });
  T.irq.forEach(function (q) { if (!(q[0] in irqRow)) { irqRow[q[0]] = rows.length; rows.push({ label: "irq " + q[0], kind: "irq", items: [] }); } });
  T.seg.forEach(function (s) {
    rows[thRow[s[0]]].items.push({ t0: s[1], t1: s[2], color: stateColor(T.states[s[3]]),
      text: T.threads[s[0]].name + ": " + T.states[s[3]] });
    if (s[3] === 1 && s[4] >= 0)
      rows[cpuRow[s[4]]].items.push({ t0: s[1], t1: s[2], color: K.threadColor(s[0], T.threads[s[0]].name),
        text: "CPU " + s[4] + ": " + T.threads[s[0]].name, under: K.isIdle(T.threads[s[0]].name) });
  });
  T.irq.forEach(function (q) {
    rows[irqRow[q[0]]].items.push({ t0: q[1], t1: q[2], color: "#f5b7b1", text: "irq " + q[0] + " " + fmtTime(q[2] - q[1]) });
    rows[irqRow[q[0]]].items.push({ t0: q[3], t1: q[4], color: "#e74c3c", text: "irq " + q[0] + " handler " + fmtTime(q[4] - q[3]), inner: true });
  });

  var view = tl.view, overlays = tl.overlays, changed = tl.changed; // (window.kevReport's hooks)
  view.t0 = 0; view.t1 = Math.max(T.span, 1);
  function x(t) { return tl.x(t); }
  function tAt(px) { return tl.tAt(px); }
  function draw() { tl.draw(); }
  function resize() { tl.draw(); }
  // message flows (client -> server at receive, server -> client at reply) and lost-event
  // windows over every row, before the other modules' overlays (blocked-by arrows, cursor)
  overlays.push(function (g) {
    g.strokeStyle = "#1f3a93"; g.lineWidth = 1;
    T.flow.forEach(function (f) {
      if (f[4] < view.t0 || f[1] > view.t1) return;
      var yc = AXIS + thRow[f[0]] * RH + RH / 2, ys = AXIS + thRow[f[2]] * RH + RH / 2;
      g.beginPath(); g.moveTo(x(f[1]), yc); g.lineTo(x(f[3]), ys); g.stroke();
      g.beginPath(); g.moveTo(x(f[4]), ys); g.lineTo(x(f[4]), yc); g.stroke();
      g.fillStyle = "#1f3a93"; g.fillRect(x(f[4]) - 2, yc - 2, 4, 4);
    });
    T.loss.forEach(function (l) {
      var a = x(l[1]), b = Math.max(x(l[2]), a + 2);
      g.fillStyle = "rgba(220,0,0,0.18)"; g.fillRect(a, AXIS, b - a, tl.H - AXIS);
      g.fillStyle = "#c00"; g.fillRect(a, AXIS, 1, tl.H - AXIS);
      g.fillText("lost " + l[3], a + 3, AXIS + 11);
    });
  });
  changed.push(function () {
    info.textContent = "view " + fmtTime(view.t0 + tr.first) + " .. " + fmtTime(view.t1 + tr.first) +
      " since boot (" + fmtTime(view.t1 - view.t0) + ")";
  });
  function zoom(f, at) { tl.zoom(f, at); draw(); }
  function pan(dt) { tl.pan(dt); draw(); }
  tl.interact();
  window.addEventListener("mousemove", function (ev) { // the tip: what is under the pointer
    var r = canvas.getBoundingClientRect(), px = ev.clientX - r.left, py = ev.clientY - r.top;
    var hit = py <= r.height ? tl.itemAt(px, py, 3) : null;
    if (hit) {
      tip.style.display = "block"; tip.style.left = ev.clientX + 12 + "px"; tip.style.top = ev.clientY + 12 + "px";
      tip.textContent = hit.text + "\n" + fmtTime(hit.t0 + tr.first) + " .. " + fmtTime(hit.t1 + tr.first) + " (" + fmtTime(hit.t1 - hit.t0) + ")";
    } else tip.style.display = "none";
  });
  function showMark(u) {
    detail.textContent = "user event " + u[2] + " on " + T.threads[u[0]].name + " at " + fmtTime(u[1] + tr.first) +
      ": " + (u[3] === "" ? "(no value)" : u[3]);
  }
  canvas.addEventListener("click", function (ev) {
    var r = canvas.getBoundingClientRect(), m = tl.markAt(ev.clientX - r.left, ev.clientY - r.top);
    if (m) showMark(m.u);
  });
  document.getElementById("zoom-in").onclick = function () { zoom(0.5); };
  document.getElementById("zoom-out").onclick = function () { zoom(2); };
  document.getElementById("zoom-reset").onclick = function () { view.t0 = 0; view.t1 = Math.max(T.span, 1); draw(); };
  window.addEventListener("keydown", function (ev) {
    var w = view.t1 - view.t0;
    if (ev.key === "+" || ev.key === "=") zoom(0.5);
    else if (ev.key === "-") zoom(2);
    else if (ev.key === "ArrowLeft") pan(-w / 5);
    else if (ev.key === "ArrowRight") pan(w / 5);
  });
  window.addEventListener("resize", resize);

  // ---- CPU time ------------------------------------------------------------------------------
  var cpu = section("cpu", "CPU time");
  var maxCpu = Math.max.apply(null, S.threads.map(function (t) { return t.cpu_cycles; }).concat([1]));
  // Several CPUs: each thread's migrations (switched in on another CPU than the time before)
  // and each CPU's time running threads, its idle thread, and no thread known (they add up
  // to the trace's span).
  var smp = tr.cpus > 1 && S.busy_cycles;
  // RUNNING time alone: no estimate of what a CPU executed where the CPUs ran in turn (kx_stats.h)
  cpu.appendChild(table(["thread", "CPU time", "share", "runs"].concat(smp ? ["migrations"] : []).concat([""]),
    S.threads.filter(function (t) { return t.cpu_cycles || t.runs; }).map(function (t) {
      return [t.name, fmtTime(t.cpu_cycles), pct(t.cpu_cycles, span), t.runs].concat(smp ? [t.migrations] : []).concat([
        el("span", { "class": "bar", style: "width:" + (300 * t.cpu_cycles / maxCpu).toFixed(1) + "px" })]);
    })));
  if (smp) {
    cpu.appendChild(el("h3", { text: "Per CPU" }));
    cpu.appendChild(table(["CPU", "threads running", "share", "idle", "no thread known", "migrations (all threads)"],
      S.busy_cycles.map(function (b, c) {
        return ["CPU " + c, fmtTime(b), pct(b, span), fmtTime(S.idle_cycles[c] || 0),
          fmtTime((S.none_cycles || [])[c] || 0), c ? "" : S.migrations];
      })));
  }
  cpu.appendChild(el("h3", { text: "Per process" }));
  cpu.appendChild(table(["process", "CPU time", "share"], S.processes.map(function (p) {
    return [p.pid + " " + p.name, fmtTime(p.cpu_cycles), pct(p.cpu_cycles, span)];
  })));
  cpu.appendChild(el("h3", { text: "Per priority" }));
  if (!S.priorities.length) cpu.appendChild(el("p", { "class": "note", text: "No priorities in this trace: they come with PRIO_CHANGE and wide-mode thread events." }));
  var maxP = Math.max.apply(null, S.priorities.map(function (p) { return p.cpu_cycles; }).concat([1]));
  cpu.appendChild(table(["priority", "CPU time", ""], S.priorities.map(function (p) {
    return [p.prio, fmtTime(p.cpu_cycles), el("span", { "class": "bar", style: "width:" + (300 * p.cpu_cycles / maxP).toFixed(1) + "px" })];
  })));

  // ---- thread states -------------------------------------------------------------------------
  var st = section("states", "Time in each thread state");
  st.appendChild(table(["thread", "states", "detail"], S.threads.map(function (t) {
    var tot = 0, parts = [];
    Object.keys(t.states).forEach(function (k) { tot += t.states[k]; });
    var stack = el("span", { "class": "stack" });
    Object.keys(t.states).forEach(function (k) {
      var i = el("i", { style: "width:" + (100 * t.states[k] / (tot || 1)).toFixed(2) + "%;background:" + stateColor(k), title: k + " " + fmtTime(t.states[k]) });
      stack.appendChild(i); parts.push(k + " " + fmtTime(t.states[k]));
    });
    return [t.name, stack, parts.join(", ")];
  })));

  // ---- kernel calls ----------------------------------------------------------------------------
  var kc = section("kcalls", "Kernel calls");
  kc.appendChild(table(["call", "entries", "completed", "errors", "errno", "mean", "max"], S.kernel_calls.map(function (k) {
    return [k.name, k.entries, k.count, k.errors,
      Object.keys(k.errno).map(function (e) {
        return e + " (" + ((k.errno_name || {})[e] || "?") + "): " + k.errno[e];
      }).join(", "),
      fmtTime(k.latency.mean), fmtTime(k.latency.max)];
  })));
  var kh = el("div", { "class": "hists" });
  S.kernel_calls.filter(function (k) { return k.latency.n; }).forEach(function (k) { kh.appendChild(hist(k.name + " latency", k.latency)); });
  kc.appendChild(kh);

  // ---- interrupts ------------------------------------------------------------------------------
  var iq = section("irqs", "Interrupts");
  iq.appendChild(table(["irq", "count", "per second", "mean handler", "mean interrupt -> thread"], S.interrupts.map(function (q) {
    return [q.irq, q.count, q.rate_per_s.toFixed(1), fmtTime(q.handler.mean), q.latency.n ? fmtTime(q.latency.mean) : "-"];
  })));
  var ih = el("div", { "class": "hists" });
  S.interrupts.forEach(function (q) {
    ih.appendChild(hist("irq " + q.irq + " handler", q.handler));
    ih.appendChild(hist("irq " + q.irq + " interrupt -> thread", q.latency));
  });
  iq.appendChild(ih);

  // ---- messages --------------------------------------------------------------------------------
  // A part of a thread's time (kx_wait_parts_json) in the model's words: running, ready
  // (preempted by whom), blocked in a state (on what, held by whom and its priority then).
  function stateText(q) {
    if (q.state === "RUNNING") return "running";
    if (q.state === "READY") return q.by ? "ready, preempted by " + q.by : "ready, waiting for its CPU";
    if (q.state === "unknown") return "unknown (before the thread's kept history)";
    var t = "blocked (" + q.state + ")";
    if (q.object) t += " on " + q.object + " held by " + (q.owner ? q.owner + (q.owner_prio >= 0 ? " (prio " + q.owner_prio + ")" : "") : "(nobody known)");
    return t;
  }
  var ms = section("msgs", "Messages");
  ms.appendChild(table(["client", "server", "kind", "count", "errors", "mean send -> reply", "max"], S.channels.map(function (c) {
    return [c.client, c.server + " (" + c.server_pid + ")", c.pulse ? "pulse" : "message", c.count, c.errors,
      c.pulse ? "-" : fmtTime(c.latency.mean), c.pulse ? "-" : fmtTime(c.latency.max)];
  })));
  var mh = el("div", { "class": "hists" });
  S.channels.filter(function (c) { return !c.pulse; }).forEach(function (c) { mh.appendChild(hist(c.client + " -> " + c.server, c.latency)); });
  ms.appendChild(mh);
  S.channels.filter(function (c) { return c.requests; }).forEach(function (c) {
    ms.appendChild(el("h3", { text: "Critical path of " + c.client + " -> " + c.server + " (mean per request)" }));
    ms.appendChild(table(["thread", "", "time"], c.critical_path.map(function (p) {
      return [p.thread, p.waiting ? "waits to be received" : "holds the request", fmtTime(p.cycles / c.requests)];
    })));
  });
  if (S.worst_request) {
    var w = S.worst_request;
    ms.appendChild(el("h3", { text: "Slowest request: " + fmtTime(w.total_cycles) + " across " + w.depth + " threads" }));
    // each thread that held the request, then its states meanwhile as the model names them
    var wrows = [];
    w.path.forEach(function (p) {
      wrows.push([p.thread, p.waiting ? "waits to be received" : "holds the request", fmtTime(p.t0), fmtTime(p.t1), fmtTime(p.t1 - p.t0)]);
      (p.parts || []).forEach(function (q) { wrows.push(["", stateText(q), "", "", fmtTime(q.t)]); });
    });
    var wt = table(["thread", "", "from", "to", "time"], wrows);
    wt.id = "worst-request";
    ms.appendChild(wt);
  }

  // ---- lost events -----------------------------------------------------------------------------
  var lo = section("lost", "Lost events");
  if (tr.damaged) lo.appendChild(el("p", { "class": "loss", text: "Unknown after byte offset " + tr.damaged.offset + ": the file is damaged there." }));
  if (!S.lost_windows.length) lo.appendChild(el("p", { text: tr.damaged ? "No event was lost before the damage." : "No event was lost." }));
  else {
    lo.appendChild(table(["CPU", "from", "to", "lost", "classes around the gap"], S.lost_windows.map(function (g) {
      return [g.cpu, fmtTime(g.t0), g.after_end ? "end of trace" : fmtTime(g.t1), g.lost,
        Object.keys(g.classes).map(function (k) { return k + " " + g.classes[k]; }).join(", ")];
    })));
    lo.appendChild(el("p", { "class": "note", text: "Results spanning these windows (state times, latencies, message matching) may be wrong there." }));
  }

  // ---- user events -----------------------------------------------------------------------------
  var ue = section("user", "User events");
  if (!S.user_events.length) ue.appendChild(el("p", { text: "No user events in this trace." }));
  else ue.appendChild(table(["id", "process", "count", "first", "last"], S.user_events.map(function (u) {
    return [u.id, u.pid + " " + u.process, u.count, fmtTime(u.first), fmtTime(u.last)];
  })));
  if (S.user_events_not_listed) ue.appendChild(el("p", { "class": "note", text: S.user_events_not_listed + " more user events not listed." }));

  // ---- function calls (fbt firings the capture recorded: stats.funcs, tools/analysis/kx_funcs.c)
  if (S.funcs && S.funcs.length) {
    var fc = section("funcs", "Function calls");
    var fns = S.funcs.slice().sort(function (a, b) { return b.total - a.total || (b.entries + b.returns) - (a.entries + a.returns); });
    fc.appendChild(table(["function", "entries", "returns", "timed", "total", "mean", "longest"], fns.map(function (f) {
      var name = (T.fn_names && T.fn_names[String(f.fn)]) || ("0x" + f.fn.toString(16));
      return [name, f.entries, f.returns, f.timed, f.timed ? fmtTime(f.total) : "-",
        f.timed ? fmtTime(f.total / f.timed) : "-", f.timed ? fmtTime(f.max) : "-"];
    })));
    if (S.funcs_unpaired) fc.appendChild(el("p", { "class": "note", text: S.funcs_unpaired + " entries with no return recorded (their :return not enabled): counted, not timed." }));
  }

  // ---- USDT probes (firings the capture recorded, named from the programs' notes: stats.usdt,
  // tools/analysis/kx_usdt.c)
  if (S.usdt && S.usdt.length) {
    var us = section("usdt", "USDT probes");
    us.appendChild(table(["probe", "program", "function", "count", "first", "last", "arguments: least..greatest"], S.usdt.map(function (u) {
      return [u.probe, u.module || "?", u.function, u.count, fmtTime(u.first), fmtTime(u.last),
        u.args.map(function (a, k) { return "arg" + k + " " + a.min + ".." + a.max; }).join("  ")];
    })));
  }

  // The page's parts for the modules that follow this script (report_analysis.js; a flame
  // graph): they add sections, draw over the timeline (overlays) and follow the view (changed).
  window.kevReport = { D: D, S: S, T: T, hz: hz, el: el, table: table, section: section, hist: hist,
    fmtTime: fmtTime, stateColor: stateColor, hue: hue, view: view, draw: draw, x: x, tAt: tAt,
    canvas: canvas, rows: rows, thRow: thRow, AXIS: AXIS, RH: RH, LABEL: LABEL,
    overlays: overlays, changed: changed, toolbar: bar, timelineSection: tsec };
  resize();
  // "#selftest": drive the zoom and pan controls the way a user would, and record the views
  // in body[data-selftest] for the headless-browser test.
  if (location.hash === "#selftest") {
    var seen = [];
    var span0 = view.t1 - view.t0;
    document.getElementById("zoom-in").click();
    seen.push(Math.abs((view.t1 - view.t0) * 2 - span0) < 1e-6 * span0 ? "zoom-in:ok" : "zoom-in:bad");
    var r = canvas.getBoundingClientRect(), before = view.t0;
    canvas.dispatchEvent(new MouseEvent("mousedown", { clientX: r.left + 400, clientY: r.top + 30, bubbles: true }));
    window.dispatchEvent(new MouseEvent("mousemove", { clientX: r.left + 300, clientY: r.top + 30, bubbles: true }));
    window.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
    seen.push(view.t0 > before ? "pan:ok" : "pan:bad");
    var w0 = view.t1 - view.t0;
    canvas.dispatchEvent(new WheelEvent("wheel", { deltaY: -100, clientX: r.left + 500, clientY: r.top + 30, bubbles: true, cancelable: true }));
    seen.push(view.t1 - view.t0 < w0 ? "wheel:ok" : "wheel:bad");
    document.getElementById("zoom-reset").click();
    seen.push(view.t0 === 0 ? "reset:ok" : "reset:bad");
    // a click on the first user event's marker shows its value
    var first = null;
    rows.forEach(function (row, i) { (row.marks || []).forEach(function (m) { if (!first) first = [m.u, i]; }); });
    if (first) {
      r = canvas.getBoundingClientRect();
      canvas.dispatchEvent(new MouseEvent("click", { clientX: r.left + x(first[0][1]), clientY: r.top + AXIS + first[1] * RH + RH / 2, bubbles: true }));
      seen.push(detail.textContent.indexOf(first[0][3]) >= 0 && detail.textContent.indexOf("user event " + first[0][2]) === 0 ? "user:ok" : "user:bad");
    }
    document.body.setAttribute("data-selftest", seen.join(" "));
  }
  document.body.setAttribute("data-ready", "1");
})(window.KV);
