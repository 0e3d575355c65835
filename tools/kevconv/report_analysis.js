// SPDX-License-Identifier: MIT
// The analysis module of the kevreport page (embedded after report.js by report_assets.c; no
// external code). Through window.kevReport it adds:
//   * a findings panel (#findings): faults (who, the signal, pc, address, the function holding
//     the pc and the stack, named by kevreport from the capture's ELF files; a marker on the
//     faulting thread's row), who blocked whom and how long (the waits over a threshold by
//     waiter, object and holder: count, total, worst), the wait chains followed to their
//     roots (each waiter's worst wait link by link), priority inversions ranked by the time
//     they cost, deadlock cycles, boosts by the one rule (kx_prio.h), message inheritance
//     apart, threads still blocked at the end, each with a "show" button;
//   * go-to-time (#goto), a cursor, and statistics of a selected range (#range-*);
//   * CPU load over time per CPU (#cpuload) and a priority lane (#priolane), clickable;
//   * blocked-by arrows on the timeline, from a waiting thread to the owner of what it waits on;
//   * a searchable, filterable event list (#events) that follows the timeline's view, and
//     moves the view to an event clicked.
// Every time shown is time since boot, like the other tools. Sets body[data-analysis] when done.
"use strict";
(function () {
  var R = window.kevReport;
  if (!R) return;
  var S = R.S, T = R.T, el = R.el, fmt = R.fmtTime, first = S.trace.first, hz = R.hz;
  var view = R.view, W = S.waits;
  function boot(t) { return fmt(t + first); }
  var cursor = null;

  // "2.5 ms", "300 us", "1.2 s", "150000 ns"; a bare number is milliseconds. Time since boot
  // in, timeline cycles out; NaN when not understood.
  function parseTime(str) {
    var m = /^\s*([0-9]*\.?[0-9]+)\s*(s|ms|us|µs|ns)?\s*$/.exec(str || "");
    if (!m) return NaN;
    var mult = { s: 1, ms: 1e-3, us: 1e-6, "µs": 1e-6, ns: 1e-9 }[m[2] || "ms"];
    return parseFloat(m[1]) * mult * hz - first;
  }
  function goTo(t, width) {
    var w = width || view.t1 - view.t0;
    view.t0 = t - w / 2; view.t1 = t + w / 2; cursor = t;
    R.draw();
  }

  // ---- findings ----------------------------------------------------------------------------
  var fs = el("section", { id: "findings" }, [el("h2", { text: "Findings: faults, who blocked whom" })]);
  R.timelineSection.parentNode.insertBefore(fs, R.timelineSection);
  function finding(kind, text, t, width) {
    var b = el("button", { "class": "show", text: "show" });
    b.onclick = function () { goTo(t, Math.max(width || 0, T.span / 50)); R.canvas.scrollIntoView(); };
    var li = el("li", { "class": "finding " + kind }, [el("span", { "class": "text", text: text }), " ", b]);
    return li;
  }
  function who(name, prio) { return name + (prio >= 0 ? " (prio " + prio + ")" : ""); }
  // Every thread that ran in the owner's place, largest share first, each with its share when
  // there are several (the shares add up to the time lost).
  function middles(v) {
    var m = v.middles || [{ thread: v.middle, thread_prio: v.middle_prio, lost: v.lost }];
    if (m.length === 1 && !v.others_lost) return who(m[0].thread, m[0].thread_prio);
    var parts = m.map(function (x) { return who(x.thread, x.thread_prio) + " for " + fmt(x.lost); });
    if (v.others_lost) parts.push("other threads for " + fmt(v.others_lost));
    return parts.join(", ");
  }
  // A link of a wait chain from its waiter's side, as kevstat says it (kx_chain_text.c).
  function linkText(p) {
    var to = p.to || "a thread not known";
    if (p.how === "send" || p.how === "reply") return "on its send to " + to + (p.how === "send" ? " (not received)" : "");
    if (p.how === "mutex") return "on " + p.object + " held by " + to;
    if (p.how === "semaphore") return "on " + p.object + (p.given ? " posted by " : " taken by ") + to;
    return "on " + p.object + (p.to ? " signalled by " + to : " (signaller unknown)");
  }
  // Of a root's time, the root woken and not yet running (its CPU idle or less urgent: across
  // CPUs the IPI and that CPU's answer): a wake-up's latency, named as kevstat names it.
  function waking(r) { return r.waking ? " (of it waking " + fmt(r.waking) + ": its wake-up's latency)" : ""; }
  // "fuse (prio 30) waited 7.46 ms at 112.7 ms: its send to store/srv, which waited 7.39 ms on
  // mutex 1 held by store/main; attributed to store/main 7.39 ms, store/srv 70 us"
  function chainText(x) {
    var w = x.worst, t = who(x.waiter, w.prio) + " waited " + fmt(w.len) + " at " + fmt(w.t0) + (w.open ? " (still at the end)" : "");
    w.path.forEach(function (p, i) {
      var l = linkText(p);
      t += i ? ", which waited " + fmt(p.t) + " " + l : ": " + (l.indexOf("on its ") === 0 ? l.slice(3) : l);
    });
    return t + (w.cycle ? " (a deadlock cycle)" : "") + "; attributed to " + w.roots.map(function (r) {
      return (r.thread || "no thread known (a cycle, or a holder unknown)") + " " + fmt(r.t) + waking(r); }).join(", ");
  }
  // Faults (T.faults, kx_faults.c: computed and named once, by kevreport): a finding each with
  // its stack, and a marker on the faulting thread's row (the overlay below).
  var F = (T.faults && T.faults.list) || [];
  if (F.length) {
    var fl = el("ul", { id: "faults-list" });
    F.forEach(function (f, i) {
      var th = f.thread >= 0 ? T.threads[f.thread].name : f.process + " " + f.pid + "/" + f.tid;
      var li = finding("fault", "Fault: " + th + " (pid " + f.pid + ") killed by " + f.signal +
        " (" + f.kind + (f.addr ? " at " + f.addr : "") + ") at " + boot(f.t) + ", pc " + f.pc +
        " in " + f.function + (f.source ? " [" + f.source + "]" : ""), f.t);
      li.id = "fault-" + i;
      if (f.frames.length) {
        var ol = el("ol", { "class": "fault-stack" });
        f.frames.forEach(function (fr) { ol.appendChild(el("li", { text: fr })); });
        li.appendChild(ol);
        if (f.cut_short) li.appendChild(el("span", { "class": "note", text: "stack cut short: " + f.cut_short }));
      } else {
        li.appendChild(el("span", { "class": "note", text: " (no stack recorded)" }));
      }
      fl.appendChild(li);
    });
    fs.appendChild(fl);
    if (T.faults.more) fs.appendChild(el("p", { "class": "note", text: T.faults.more + " more faults not listed." }));
  }
  if (!W) fs.appendChild(el("p", { "class": "note", text: "No wait analysis (out of memory)." }));
  else {
    fs.appendChild(el("p", { "class": "note", text: (W.sync_events ? "Owners from SYNC_WAIT events" :
      "Owners derived from MutexLock/MutexUnlock/SemWait/SemPost (no SYNC_WAIT events: locks taken before the capture have no known owner)") +
      "; " + (W.prio_events ? "priorities from PRIO_CHANGE events." : "priorities from thread state events (no PRIO_CHANGE events: boosts seen as an owner's priority rising in its state events, only in wide mode).") }));
    // The threshold a wait is listed from: the user's (kevreport --wait-min), else each
    // waiter's own (1% of its period, at most the default 100 us): kw_wait_groups.
    var dflt = W.default_threshold_ns * hz / 1e9;
    var rule = W.threshold_ns >= 0 ? "waits of " + fmt(W.threshold_ns * hz / 1e9) + " or more (kevreport --wait-min)"
      : "waits longer than 1% of the waiter's period or " + fmt(dflt) + " (kevreport --wait-min TIME to choose)";
    // Who blocked whom, how long: a row per waiter, object and holder, largest total first,
    // each with a "show" button on its worst wait.
    fs.appendChild(el("h3", { id: "waits-h", text: "Who blocked whom, how long: " + W.groups.length + " waiter/object pair(s)" }));
    fs.appendChild(el("p", { "class": "note", id: "waits-rule", text: "Listed: " + rule + "; " +
      (W.under_threshold ? W.under_threshold + " shorter wait(s) not listed." : "no shorter wait left out.") +
      (W.waits_not_kept ? " " + W.waits_not_kept + " waits not kept (out of memory)." : "") }));
    if (!W.groups.length) fs.appendChild(el("p", { id: "waits-none", text: "No wait on a mutex, semaphore or condition variable over the threshold." }));
    else {
      var wt = R.table(["waiter", "waited on", "held by", "waits", "total", "worst", "worst at", ""],
        W.groups.map(function (g) {
          var b = el("button", { "class": "show", text: "show" });
          b.onclick = function () { goTo(g.worst_at - first + g.worst / 2, Math.max(3 * g.worst, T.span / 500)); R.canvas.scrollIntoView(); };
          return [who(g.waiter, g.waiter_prio), g.object + " (" + g.state + ")", g.owner ? who(g.owner, g.owner_prio) : "nobody known",
            g.count, fmt(g.total), fmt(g.worst), fmt(g.worst_at), b];
        }));
      wt.id = "waits-table";
      fs.appendChild(wt);
    }
    // Wait chains (S.chains, tools/include/kevhost/kx_chain.h): each waiter whose worst wait
    // reached its threshold, the time its waits gave each root, its worst wait link by link
    // with its priority then, and a "show" button on it.
    var C = S.chains;
    if (C) {
      var cws = C.waiters.filter(function (x) { return x.listed; }).sort(function (a, b) { return b.worst.len - a.worst.len; });
      fs.appendChild(el("h3", { id: "chains-h", text: "Wait chains, followed to their roots: " + cws.length + " waiter(s)" }));
      fs.appendChild(el("p", { "class": "note", text: "Each wait on another thread (a send to its receiver and its reply, a mutex to its owner, " +
        "a semaphore to its taker, a condition variable to its signaller) followed link by link to the thread at its end, which waited " +
        "on no thread (it ran or was ready): the root, to which the time is attributed; when that thread waited for input (a receive, " +
        "a sleep, an interrupt wait), the time goes to the input that came (an interrupt, a timer), not to the thread. " +
        "Listed: the waiters whose worst wait reached their threshold, as above." }));
      if (cws.length) {
        var ct = R.table(["waiter", "waits", "total", "worst", "attributed to (the roots)"], cws.map(function (x) {
          return [x.waiter, x.count, fmt(x.total), fmt(x.worst.len), x.roots.map(function (r) {
            return (r.thread || "no thread known") + " " + fmt(r.t) + waking(r); }).join(", ")];
        }));
        ct.id = "chains-table";
        fs.appendChild(ct);
        var cl = el("ul", { id: "chains-list" });
        cws.forEach(function (x) {
          var li = finding("chain", chainText(x), x.worst.t0 - first + x.worst.len / 2, 3 * x.worst.len);
          li.setAttribute("data-waiter", x.waiter);
          cl.appendChild(li);
        });
        fs.appendChild(cl);
      }
    }
    // Priority inversions, ranked by the time they cost; one that cost less than the
    // threshold of its waiter in all ("listed" false: kw_threshold) is counted, not listed
    // (on several CPUs a boosted owner may wait a few hundred ns for a CPU: not a finding).
    var invs = W.inversions.slice().sort(function (a, b) { return b.lost - a.lost; });
    var small = invs.filter(function (v) { return !v.listed; });
    invs = invs.filter(function (v) { return small.indexOf(v) < 0; });
    fs.appendChild(el("h3", { id: "inversions-h", text: "Priority inversions: " + invs.length }));
    var ul = el("ul", { id: "findings-list" });
    invs.forEach(function (v) {
      ul.appendChild(finding("inversion", "Priority inversion: " + who(v.waiter, v.waiter_prio) + " blocked on " +
        v.object + " held by " + who(v.owner, v.owner_prio) + ", preempted by " + middles(v) +
        ": " + fmt(v.lost) + " lost in " + v.count + " wait(s), longest " + fmt(v.max) + ", first at " + fmt(v.first),
        v.first - first, 3 * v.max));
    });
    if (small.length) {
      var lost = 0;
      small.forEach(function (v) { lost += v.lost; });
      fs.appendChild(el("p", { "class": "note", id: "inversions-small", text: small.length +
        " inversion(s) under the threshold not listed (" + fmt(lost) + " lost in all)." }));
    }
    W.deadlocks.forEach(function (d) {
      var parts = d.cycle.map(function (c, i) {
        return (i ? "which" : c.thread) + " waits on " + c.object + " held by " + c.owner;
      });
      ul.appendChild(finding("deadlock", "Deadlock at " + fmt(d.t) + ": " + parts.join(", ") +
        (d.broken ? "; broken at " + fmt(d.broken) + " (a wait ended: timeout or kill)" :
          "; still blocked at the end of the trace"), d.t - first));
    });
    // "boosted" by the one rule (tools/include/kevhost/kx_prio.h): a rise by mutex inheritance; a
    // server taking its clients' priorities is message inheritance, shown apart.
    W.boosts.forEach(function (b) {
      var k = b.kinds || {};
      if (b.count)
        ul.appendChild(el("li", { "class": "finding boost", text: b.thread + " boosted " + b.count + " time(s) by priority inheritance (mutex)" }));
      if (k["message inheritance up"] || k["message inheritance down"])
        ul.appendChild(el("li", { "class": "finding msginh", text: b.thread + " took its clients' priorities (message inheritance, not a boost): raised " +
          (k["message inheritance up"] || 0) + " time(s), lowered " + (k["message inheritance down"] || 0) + " time(s)" }));
    });
    W.blocked_at_end.forEach(function (b) {
      ul.appendChild(finding("blocked", "Still blocked at the end: " + b.thread + " since " + fmt(b.since) +
        " on " + b.object + " held by " + (b.owner || "nobody known"), b.since - first));
    });
    if (!ul.childNodes.length) fs.appendChild(el("p", { text: "No priority inversion, deadlock or boost found." }));
    fs.appendChild(ul);
  }

  // ---- go to time, range statistics ------------------------------------------------------------
  var gotoIn = el("input", { id: "goto", placeholder: "go to (e.g. 2.5 ms)", size: "14" });
  var gotoBtn = el("button", { id: "goto-btn", text: "go" });
  gotoBtn.onclick = function () { var t = parseTime(gotoIn.value); if (!isNaN(t)) goTo(t); };
  gotoIn.addEventListener("keydown", function (ev) { if (ev.key === "Enter") gotoBtn.click(); ev.stopPropagation(); });
  R.toolbar.appendChild(gotoIn); R.toolbar.appendChild(gotoBtn);

  var rs = el("section", { id: "range" }, [el("h2", { text: "Statistics of a range" })]);
  R.timelineSection.parentNode.insertBefore(rs, R.timelineSection.nextSibling);
  var rFrom = el("input", { id: "range-from", placeholder: "from (ms since boot)", size: "14" });
  var rTo = el("input", { id: "range-to", placeholder: "to", size: "14" });
  var rBtn = el("button", { id: "range-btn", text: "statistics" });
  var rView = el("button", { id: "range-view", text: "use the view" });
  var rOut = el("div", { id: "range-stats" });
  rs.appendChild(el("div", { "class": "toolbar" }, [rFrom, rTo, rBtn, rView]));
  rs.appendChild(rOut);
  [rFrom, rTo].forEach(function (i) { i.addEventListener("keydown", function (ev) { ev.stopPropagation(); }); });
  function rangeStats(a, b) {
    var per = {};
    T.seg.forEach(function (s) {
      var lo = Math.max(s[1], a), hi = Math.min(s[2], b);
      if (hi <= lo) return;
      var p = per[s[0]] || (per[s[0]] = { run: 0, ready: 0, blocked: 0 });
      var st = T.states[s[3]];
      if (st === "RUNNING") p.run += hi - lo; else if (st === "READY") p.ready += hi - lo;
      else if (st !== "DEAD") p.blocked += hi - lo;
    });
    var nev = {};
    T.events.forEach(function (e) { if (e[0] >= a && e[0] < b && e[2] >= 0) nev[e[2]] = (nev[e[2]] || 0) + 1; });
    rOut.textContent = "";
    rOut.appendChild(el("p", { id: "range-info", text: "from " + boot(a) + " to " + boot(b) + " (" + fmt(b - a) + ")" }));
    rOut.appendChild(R.table(["thread", "running", "CPU share", "ready (runnable, not running)", "blocked", "events"],
      Object.keys(per).filter(function (k) { return per[k].run || per[k].ready || nev[k]; }).map(function (k) {
        var p = per[k];
        return [T.threads[k].name, fmt(p.run), (100 * p.run / (b - a)).toFixed(1) + "%", fmt(p.ready), fmt(p.blocked), nev[k] || 0];
      })));
  }
  rBtn.onclick = function () {
    var a = parseTime(rFrom.value), b = parseTime(rTo.value);
    if (!isNaN(a) && !isNaN(b) && b > a) rangeStats(a, b);
    else rOut.textContent = "give two times since boot, the second after the first (e.g. 2 ms and 4.5 ms)";
  };
  rView.onclick = function () { rangeStats(view.t0, view.t1); };

  // ---- CPU load over time and the priority lane (SVG, the whole trace) -------------------------
  var NS = "http://www.w3.org/2000/svg", CW = 900, CH = 80, span = Math.max(T.span, 1);
  function svg(w, h) { var s = document.createElementNS(NS, "svg"); s.setAttribute("width", w); s.setAttribute("height", h); return s; }
  function node(tag, attrs) { var n = document.createElementNS(NS, tag); for (var k in attrs) n.setAttribute(k, attrs[k]); return n; }
  function clickable(s) {
    s.addEventListener("click", function (ev) {
      var r = s.getBoundingClientRect();
      goTo((ev.clientX - r.left) / CW * span);
    });
    s.style.cursor = "pointer";
  }
  // The load is the analysis model's (S.cpu_load: each CPU's busy time, a thread other than
  // idle running, per bucket of `width` cycles from t0; the buckets add up to busy_cycles).
  var cl = el("section", { id: "cpuload" }, [el("h2", { text: "CPU load over time (per CPU; click: go there)" })]);
  R.timelineSection.parentNode.insertBefore(cl, rs);
  var L = S.cpu_load || { t0: first, width: 1, busy: [] }, cpus = {};
  T.seg.forEach(function (s) { if (T.states[s[3]] === "RUNNING" && s[4] >= 0) cpus[s[4]] = 1; });
  Object.keys(cpus).sort(function (a, b) { return a - b; }).forEach(function (c) {
    var busy = L.busy[c] || [], bw = L.width, NB = busy.length, tot = 0;
    busy.forEach(function (b) { tot += b; });
    var s = svg(CW, CH), pts = [], x0 = L.t0 - first;
    s.appendChild(node("rect", { x: 0, y: 0, width: CW, height: CH, fill: "#f6f6f6" }));
    for (var i = 0; i < NB; i++) {
      var w = Math.min(bw, span - (x0 + i * bw)); // the last bucket ends with the trace
      pts.push(((x0 + (i + 0.5) * bw) / span * CW).toFixed(1) + "," + (CH - CH * busy[i] / Math.max(w, 1)).toFixed(1));
    }
    s.appendChild(node("polyline", { points: pts.join(" "), fill: "none", stroke: R.hue(+c + 3), "stroke-width": 1.5 }));
    s.id = "cpuload-" + c;
    s.setAttribute("data-load", (tot / span).toFixed(4));
    clickable(s);
    cl.appendChild(el("div", { "class": "title", text: "CPU " + c + ": " + (100 * tot / span).toFixed(1) + "% busy over the trace" }));
    cl.appendChild(s);
  });

  var pl = el("section", { id: "priolane" }, [el("h2", { text: "Priority lane (the running thread's priority per CPU; click: go there)" })]);
  R.timelineSection.parentNode.insertBefore(pl, rs);
  var maxp = 1;
  T.seg.forEach(function (s) { if (s[5] > maxp) maxp = s[5]; });
  Object.keys(cpus).forEach(function (c) {
    var s = svg(CW, CH), n = 0;
    s.appendChild(node("rect", { x: 0, y: 0, width: CW, height: CH, fill: "#f6f6f6" }));
    T.seg.forEach(function (g) {
      if (T.states[g[3]] !== "RUNNING" || g[4] != c || !(g[5] >= 0)) return;
      var h = (CH - 4) * g[5] / maxp, r = node("rect", { x: (g[1] / span * CW).toFixed(2), y: (CH - h).toFixed(1),
        width: Math.max((g[2] - g[1]) / span * CW, 0.5).toFixed(2), height: h.toFixed(1), fill: R.hue(g[0] + 1) });
      var tt = node("title", {}); tt.textContent = T.threads[g[0]].name + " prio " + g[5] + " at " + boot(g[1]);
      r.appendChild(tt); s.appendChild(r); n++;
    });
    s.id = "priolane-" + c;
    s.setAttribute("data-runs", n);
    clickable(s);
    pl.appendChild(el("div", { "class": "title", text: "CPU " + c + (n ? "" : ": no priorities in this trace (PRIO_CHANGE and wide-mode thread events carry them)") }));
    pl.appendChild(s);
  });

  // ---- blocked-by arrows, fault markers and the cursor over the timeline ---------------------------
  R.overlays.push(function (g) {
    var drawn = 0, AX = R.AXIS, RH = R.RH, marked = 0;
    F.forEach(function (f) {   // a red cross on the faulting thread's row, at the fault
      if (!(f.thread in R.thRow) || f.t < view.t0 || f.t > view.t1) return;
      var px = R.x(f.t), y = AX + R.thRow[f.thread] * RH;
      g.strokeStyle = "#d00"; g.lineWidth = 2.5;
      g.beginPath(); g.moveTo(px - 5, y + 2); g.lineTo(px + 5, y + RH - 2);
      g.moveTo(px + 5, y + 2); g.lineTo(px - 5, y + RH - 2); g.stroke();
      marked++;
    });
    R.canvas.setAttribute("data-fault-marks", marked);
    (T.waits || []).forEach(function (w) {
      if (w[2] < view.t0 || w[1] > view.t1 || !(w[0] in R.thRow) || !(w[3] in R.thRow)) return;
      var yw = AX + R.thRow[w[0]] * RH + RH / 2, yo = AX + R.thRow[w[3]] * RH + RH / 2;
      var a = R.x(Math.max(w[1], view.t0)), b = R.x(Math.min(w[2], view.t1));
      g.strokeStyle = "#c0392b"; g.fillStyle = "#c0392b"; g.lineWidth = 1.5;
      g.beginPath(); g.moveTo(a, yw + RH / 2 - 2); g.lineTo(b, yw + RH / 2 - 2); g.stroke(); // the wait
      g.beginPath(); g.moveTo(a, yw); g.lineTo(a, yo); g.stroke();                         // to its owner
      var d = yo > yw ? -1 : 1;
      g.beginPath(); g.moveTo(a, yo); g.lineTo(a - 4, yo + 7 * d); g.lineTo(a + 4, yo + 7 * d); g.closePath(); g.fill();
      if (b - a > 80) g.fillText("on " + w[4] + " held by " + T.threads[w[3]].name, a + 4, yw - 1);
      drawn++;
    });
    R.canvas.setAttribute("data-arrows", drawn);
    if (cursor !== null && cursor >= view.t0 && cursor <= view.t1) {
      g.strokeStyle = "#000"; g.lineWidth = 1;
      g.beginPath(); g.moveTo(R.x(cursor), AX); g.lineTo(R.x(cursor), R.canvas.clientHeight); g.stroke();
    }
    g.lineWidth = 1;
  });

  // ---- the event list ------------------------------------------------------------------------------
  var es = el("section", { id: "events" }, [el("h2", { text: "Events" })]);
  R.timelineSection.parentNode.insertBefore(es, rs.nextSibling);
  var search = el("input", { id: "ev-search", placeholder: "search (text, thread, class)", size: "30" });
  var cls = el("select", { id: "ev-class" }, [el("option", { value: "", text: "all classes" })]);
  var classes = {};
  T.events.forEach(function (e) { classes[e[3]] = 1; });
  Object.keys(classes).sort().forEach(function (c) { cls.appendChild(el("option", { value: c, text: c })); });
  var inview = el("input", { id: "ev-inview", type: "checkbox" });
  inview.checked = true;
  var count = el("span", { id: "ev-count" });
  es.appendChild(el("div", { "class": "toolbar" }, [search, cls, el("label", {}, [inview, " only the timeline's view"]), count]));
  if (T.events_cut) es.appendChild(el("p", { "class": "note", text: T.events_cut + " later events not listed (kevreport --max-events)" }));
  var tbl = el("table", { id: "ev-table", "class": "kv-table" });
  es.appendChild(tbl);
  search.addEventListener("keydown", function (ev) { ev.stopPropagation(); });
  var MAXROWS = 500, pending = false;
  function name(th) { return th >= 0 && T.threads[th] ? T.threads[th].name : "-"; }
  function refresh() {
    pending = false;
    var q = search.value.toLowerCase(), c = cls.value, n = 0;
    tbl.textContent = "";
    tbl.appendChild(el("tr", {}, ["time since boot", "CPU", "thread", "class", "event"].map(function (h) { return el("th", { text: h }); })));
    T.events.forEach(function (e) {
      if (c && e[3] !== c) return;
      if (inview.checked && (e[0] < view.t0 || e[0] > view.t1)) return;
      if (q && (e[4] + " " + name(e[2]) + " " + e[3]).toLowerCase().indexOf(q) < 0) return;
      if (n++ >= MAXROWS) return;
      var tr = el("tr", { "class": "ev" + (cursor === e[0] ? " sel" : ""), "data-t": e[0] },
        [boot(e[0]), e[1], name(e[2]), e[3], e[4]].map(function (v) { return el("td", { text: String(v) }); }));
      tr.onclick = function () { goTo(e[0]); };
      tbl.appendChild(tr);
    });
    count.textContent = n + " events" + (n > MAXROWS ? " (the first " + MAXROWS + " shown)" : "");
    count.setAttribute("data-n", n);
  }
  function later() { if (!pending) { pending = true; setTimeout(refresh, 0); } }
  search.addEventListener("input", later);
  cls.addEventListener("change", later);
  inview.addEventListener("change", later);
  R.changed.push(later);

  R.draw();
  refresh();
  window.kevReport.goTo = goTo;
  window.kevReport.parseTime = parseTime;
  document.body.setAttribute("data-analysis", "1");
})();
