// SPDX-License-Identifier: MIT
// A thread state's colour, for both viewers (kv_dom.js says which). The states' names come from
// the C side (kev_thread_state_name, in the page's data: kevweb's "states", kevreport's
// timeline.states); their colours are here and nowhere else. A state named nowhere here (one
// added to the event table since) still gets a colour of its own, from its name: a new state is
// added in one place, the table, and shows at once; giving it a chosen colour is one line here.
"use strict";
(function (K) {
  var COLOR = { RUNNING: "#2e9e44", READY: "#f0c419", SEND: "#e67e22", RECEIVE: "#b8c7e0",
    REPLY: "#d35400", NANOSLEEP: "#c9c9c9", MUTEX: "#c0392b", CONDVAR: "#8e44ad", SEM: "#9b59b6",
    JOIN: "#16a085", INTR: "#2980b9", WAITCHILD: "#95a5a6", DEAD: "#555", STOPPED: "#7f8c8d" };
  K.stateColor = function (name) {
    if (COLOR[name]) return COLOR[name];
    if (!name) return "#ddd";
    var h = 0;
    for (var i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
    return "hsl(" + (h % 360) + ",35%,70%)";
  };
  // The legend's entries into box: of the states named (the C side's names, in its order), those
  // given a colour here and those in used (a name -> 1 object: a state the page shows).
  K.stateLegend = function (box, names, used) {
    (names || []).forEach(function (k) {
      if (!COLOR[k] && !(used && used[k])) return;
      box.appendChild(K.el("span", { "data-state": k }, [K.el("i", { style: "background:" + K.stateColor(k) }), k]));
    });
  };
})(window.KV = window.KV || {});
