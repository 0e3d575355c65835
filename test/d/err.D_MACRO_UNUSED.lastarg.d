/* ARGS: 1 2 */
/* The last script argument must be named (unless -x argref), as libdtrace requires. */
BEGIN { trace($1); exit(0); }
