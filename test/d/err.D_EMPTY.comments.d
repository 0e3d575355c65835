/*
 * Nothing but comments and a declaration: libdtrace finds no clause, inline or translator.
 */
int unused;
