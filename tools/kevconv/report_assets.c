// SPDX-License-Identifier: MIT
// The HTML report's stylesheet and scripts (report.css, report.js, report_analysis.js,
// report_tasks.js, report_flame.js, report_contents.js), embedded in kevreport as
// NUL-terminated strings so that the report needs no file at run time. module.mk makes this
// object depend on each of them.
__asm__(".section .rodata\n"
        ".global kevreport_css\n"
        "kevreport_css:\n"
        ".incbin \"tools/kevconv/report.css\"\n"
        ".byte 0\n"
        ".global kevreport_js\n"
        "kevreport_js:\n"
        ".incbin \"tools/kevconv/report.js\"\n"
        ".byte 0\n"
        ".global kevreport_analysis_js\n"
        "kevreport_analysis_js:\n"
        ".incbin \"tools/kevconv/report_analysis.js\"\n"
        ".byte 0\n"
        ".global kevreport_tasks_js\n"
        "kevreport_tasks_js:\n"
        ".incbin \"tools/kevconv/report_tasks.js\"\n"
        ".byte 0\n"
        ".global kevreport_flame_js\n"
        "kevreport_flame_js:\n"
        ".incbin \"tools/kevconv/report_flame.js\"\n"
        ".byte 0\n"
        ".global kevreport_contents_js\n"
        "kevreport_contents_js:\n"
        ".incbin \"tools/kevconv/report_contents.js\"\n"
        ".byte 0\n"
        ".previous\n");
