// SPDX-License-Identifier: MIT
// The Tasks section of the kevreport page (embedded after report_analysis.js by report_assets.c;
// no external code): the model's task instances (stats.tasks, tools/analysis/kx_task_json.c:
// computed once, kevstat -s tasks prints the same). Through window.kevReport it adds:
//   * the headline the model says (kx_tasks_headline: the deadline misses of the tasks that have
//     a deadline, each named; the tasks without one named too; "at least" where events were lost);
//   * a table of the tasks: instances, period (a periodic task's timer's interval, or given),
//     jitter, deadline (the period, or given: kevreport --deadline TASK=TIME), response times,
//     the largest lateness, the program's misses and the emulator's (a miss whose lateness the
//     time the emulator took in it covers: kx_task.h), its kind (periodic: a timer's pulses
//     release it; event-driven) and missed periods (its pulses the kernel dropped);
//   * a response-time histogram per task;
//   * every missed instance, each with a "show" button that puts it in the timeline's view,
//     the emulator's marked (class "emulator") and saying so;
//   * over the timeline, on each task's row, every missed instance: a bar from its deadline to
//     its end (or to the end of the trace), red, grey for the emulator's, and a tick at its
//     release.
// Times shown are time since boot, like the other tools. Sets body[data-tasks] when done.
"use strict";
(function () {
  var R = window.kevReport;
  if (!R || !R.S.tasks) return;
  var S = R.S, T = R.T, el = R.el, fmt = R.fmtTime, first = S.trace.first;
  var K = S.tasks, tasks = K.list;
  function boot(t) { return fmt(t); }          // stats times are cycles since boot
  function show(t0, t1) {
    var w = Math.max(3 * (t1 - t0), T.span / 2000);
    if (R.goTo) R.goTo((t0 + t1) / 2 - first, w);
    R.canvas.scrollIntoView();
  }

  var sec = el("section", { id: "tasks" }, [el("h2", { text: "Tasks: instances, periods, deadline misses" })]);
  R.timelineSection.parentNode.insertBefore(sec, R.timelineSection);
  sec.appendChild(el("p", { "class": "note", id: "tasks-rule", text: "An instance of a task (a thread) runs from its " +
    "release, where the thread waits between jobs (a receive: a timer's or an interrupt's pulse, a message; an " +
    "interrupt wait; a sleep), to its next wait there; blocking elsewhere meanwhile (a send, a mutex) belongs to it. " +
    "A task is periodic when a timer's pulses release it (directly, or through a thread a timer releases), its period " +
    "the timer's interval; every other task (released by interrupts, messages, sleeps) is event-driven, with no " +
    "period and no deadline unless given (kevreport --deadline TASK=TIME). A job that leaves its loop is judged up " +
    "to the first call its jobs never made; the rest is its exit path, no job. A job a window of lost events " +
    "touches is not judged (the misses are then at least those counted). Missed periods: pulses sent for a task " +
    "that the kernel dropped (its queue full), releases with no job. Times since boot." }));
  if (!tasks.length) {
    sec.appendChild(el("p", { id: "tasks-none", text: "No thread waited at an activation point: no task instances." }));
    document.body.setAttribute("data-tasks", "1");
    return;
  }
  var misses = 0, emul = 0;
  var lostp = 0;
  tasks.forEach(function (t) { misses += t.misses; emul += t.emulator_misses; lostp += t.missed_periods; });
  sec.appendChild(el("h3", { id: "tasks-h", text: (K.headline || tasks.length + " task(s), " + misses + " deadline miss(es)") +
    (lostp ? "; " + lostp + " missed period(s) (pulses the kernel dropped)" : "") +
    (emul ? " of the program's, " + emul + " the emulator's (the time QEMU took in them covers their lateness)" : "") }));
  var tbl = R.table(["task", "instances", "period", "jitter", "deadline", "response min / mean / max",
    "worst lateness", "misses", "the emulator's", "kind", "missed periods", ""], tasks.map(function (t) {
    var b = "";
    if (t.worst) {
      b = el("button", { "class": "show", text: "show longest" });
      b.onclick = function () { show(t.worst[1], t.worst[3]); };
    }
    var r = t.response;
    return [t.thread, t.instances + (t.unfinished ? " (" + t.unfinished + " open at the end)" : "") +
      (t.exits ? " (" + t.exits + " ended in its exit: no job)" : ""),
      t.period ? fmt(t.period) + (t.period_given ? " (given)" : t.period_from === "relayed timer" ? " (its timer's, relayed)" : " (its timer's)") : "-",
      t.gaps ? fmt(t.jitter) : "-",
      t.deadline ? fmt(t.deadline) + (t.deadline_given ? " (given)" : " (period)") : "-",
      r.n ? fmt(r.min) + " / " + fmt(r.mean) + " / " + fmt(r.max) : "-",
      t.late_max === null ? "-" : (t.late_max > 0 ? "late " + fmt(t.late_max) : "early " + fmt(-t.late_max)),
      (t.spoiled ? "at least " : "") + t.misses + (t.spoiled ? " (" + t.spoiled + " not judged: events lost in them)" : ""),
      t.emulator_misses, t.kind + " (" + t.released_by + ")", t.missed_periods, b];
  }));
  tbl.id = "tasks-table";
  sec.appendChild(tbl);
  (K.rules || []).forEach(function (g) {
    if (!g.matched) sec.appendChild(el("p", { "class": "note", text: "--" + g.kind + " " + g.name + ": no task of that name." }));
  });
  if (K.lost) sec.appendChild(el("p", { "class": "note", text: K.lost + " instances not kept (out of memory)." }));
  var hs = el("div", { "class": "hists", id: "tasks-hists" });
  tasks.forEach(function (t) { hs.appendChild(R.hist(t.thread + " response time", t.response)); });
  sec.appendChild(hs);

  // every missed instance: [id, release, start, end, lateness, exec, preemptions, the
  // emulator's time in it, 1 when the miss is the emulator's]
  var ul = el("ul", { id: "misses" });
  tasks.forEach(function (t) {
    t.missed.forEach(function (m) {
      var end = m[3] || S.trace.last;
      var text = t.thread + " missed its deadline: released " + boot(m[1]) + ", " + (m[3] ? "ended " + boot(m[3]) +
        ", response " + fmt(m[3] - m[1]) : "still running at the end of the trace") + " against a deadline of " +
        fmt(t.deadline) + ": late " + fmt(m[4]) + (m[3] ? "" : " or more") + " (running " + fmt(m[5]) + ", " + m[6] + " preemption(s))";
      if (m[8]) text += "; the emulator's miss, not the program's: QEMU took " + fmt(m[7]) + " of it, the lateness or more";
      else if (m[7]) text += "; QEMU took " + fmt(m[7]) + " of it, less than the lateness: the program's miss";
      var b = el("button", { "class": "show", text: "show" });
      b.onclick = function () { show(m[1], end); };
      ul.appendChild(el("li", { "class": "finding miss" + (m[8] ? " emulator" : ""), "data-release": String(m[1]) },
        [el("span", { "class": "text", text: text }), " ", b]));
    });
    if (t.missed_more) ul.appendChild(el("li", { "class": "note", text: t.thread + ": " + t.missed_more + " more misses not listed" }));
  });
  if (ul.childNodes.length) {
    sec.appendChild(el("h3", { id: "misses-h", text: "Deadline misses" }));
    sec.appendChild(ul);
  }

  // the misses over the timeline, on each task's row
  R.overlays.push(function (g) {
    tasks.forEach(function (t) {
      var row = R.thRow[t.th];
      if (row === undefined) return;
      var y = R.AXIS + row * R.RH;
      t.missed.forEach(function (m) {
        var rel = m[1] - first, due = rel + t.deadline, end = (m[3] || S.trace.last) - first;
        if (end < R.view.t0 || rel > R.view.t1) return;
        g.fillStyle = m[8] ? "#9e9e9e" : "#d50000";
        g.fillRect(R.x(due), y + R.RH - 4, Math.max(R.x(end) - R.x(due), 2), 3);
        g.fillRect(R.x(rel), y + 1, 1.5, R.RH - 2);
      });
    });
  });
  R.draw();
  document.body.setAttribute("data-tasks", "1");
})();
