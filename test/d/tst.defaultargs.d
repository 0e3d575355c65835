/* ARGS: -x defaultargs */
/* -x defaultargs: a script argument not given is 0, and "" as a string. */
#pragma D option quiet
BEGIN { printf("%d [%s]\n", $1, $$2); exit(0); }
