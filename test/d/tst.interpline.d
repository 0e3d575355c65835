/*
 * A "#!" line is discarded wherever it stands, as libdtrace's lexer does: here after a
 * header comment, as the Guide's script/interp.d has it.
 */

#!/usr/sbin/dtrace -s

BEGIN
{
	trace("hello");
	exit(0);
}
