// SPDX-License-Identifier: MIT
// The contents bar of the kevreport page (embedded last by report_assets.c): the page's
// sections in their order, each one click away, in a bar that stays at the top of the window.
// It also puts the event list, the longest part, after the summaries (CPU time, kernel calls,
// function calls...). Runs after every other module has added its sections; sets
// body[data-contents] when done.
"use strict";
(function () {
  var R = window.kevReport;
  if (!R) return;
  var el = R.el;
  var SHORT = { findings: "Findings", tasks: "Tasks", "timeline-section": "Timeline", range: "Range", cpuload: "CPU load",
    priolane: "Priorities", cpu: "CPU time", states: "Thread states", kcalls: "Kernel calls",
    irqs: "Interrupts", msgs: "Messages", lost: "Lost events", user: "User events",
    funcs: "Function calls", usdt: "USDT probes", flame: "Flame graph", events: "Events" };
  var events = document.getElementById("events");
  if (events) document.body.appendChild(events);
  var nav = el("nav", { id: "contents" }, [el("b", { text: "Contents: " })]);
  Array.prototype.forEach.call(document.querySelectorAll("body > section[id]"), function (s) {
    var h = s.querySelector("h2");
    nav.appendChild(el("a", { href: "#" + s.id, text: SHORT[s.id] || (h ? h.textContent : s.id) }));
  });
  var h1 = document.querySelector("body > h1");
  document.body.insertBefore(nav, h1 ? h1.nextSibling : document.body.firstChild);
  document.body.setAttribute("data-contents", "1");
})();
