// SPDX-License-Identifier: MIT
// kevweb's page (live.html, live.js, live.css), the viewer's modules it shares with the HTML
// report (tools/viewer/kv_*.js: one viewer) and the report's stylesheet (tools/kevconv/report.css:
// one look for both pages), embedded as NUL-terminated strings so
// that kevweb needs no file at run time and the page no network. module.mk makes this object
// depend on each of them.
__asm__(".section .rodata\n"
        ".global kevweb_html\n"
        "kevweb_html:\n"
        ".incbin \"tools/kevweb/live.html\"\n"
        ".byte 0\n"
        ".global kevweb_js\n"
        "kevweb_js:\n"
        ".incbin \"tools/kevweb/live.js\"\n"
        ".byte 0\n"
        ".global kevweb_css\n"
        "kevweb_css:\n"
        ".incbin \"tools/kevweb/live.css\"\n"
        ".byte 0\n"
        ".global kevweb_kv_dom_js\n"
        "kevweb_kv_dom_js:\n"
        ".incbin \"tools/viewer/kv_dom.js\"\n"
        ".byte 0\n"
        ".global kevweb_kv_states_js\n"
        "kevweb_kv_states_js:\n"
        ".incbin \"tools/viewer/kv_states.js\"\n"
        ".byte 0\n"
        ".global kevweb_kv_timeline_js\n"
        "kevweb_kv_timeline_js:\n"
        ".incbin \"tools/viewer/kv_timeline.js\"\n"
        ".byte 0\n"
        ".global kevweb_report_css\n"
        "kevweb_report_css:\n"
        ".incbin \"tools/kevconv/report.css\"\n"
        ".byte 0\n"
        ".previous\n");
