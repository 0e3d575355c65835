/* A kernel symbol in backquotes needs the image's symbol table (dtrace --kernel FILE); here
 * there is none, and the name is not resolved. */
BEGIN { trace(&`kdt_fire); exit(0); }
