/* ARGS: -C */
BEGIN { x = 'a
'; }
