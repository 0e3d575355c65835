/* A script argument not given is undefined (unless -x defaultargs). */
BEGIN { trace($3); exit(0); }
