// SPDX-License-Identifier: MIT
// C99's <ctype.h> for the x86 runtime: the "C" locale, ASCII (stdlib.c). An argument outside
// unsigned char's range and EOF is no class and maps to itself.
#ifndef _X86RT_CTYPE_H
#define _X86RT_CTYPE_H

int isalnum(int c);
int isalpha(int c);
int isblank(int c);
int iscntrl(int c);
int isdigit(int c);
int isgraph(int c);
int islower(int c);
int isprint(int c);
int ispunct(int c);
int isspace(int c);
int isupper(int c);
int isxdigit(int c);
int tolower(int c);
int toupper(int c);

#endif
