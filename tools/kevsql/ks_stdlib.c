// SPDX-License-Identifier: MIT
// The standard library's views (stdlib.sql), embedded as a NUL-terminated string so that the
// extension needs no file at run time; kev_open runs it after making the tables. module.mk
// makes this object depend on the file.
__asm__(".section .rodata\n"
        ".global kevsql_stdlib_sql\n"
        "kevsql_stdlib_sql:\n"
        ".incbin \"tools/kevsql/stdlib.sql\"\n"
        ".byte 0\n"
        ".previous\n");
