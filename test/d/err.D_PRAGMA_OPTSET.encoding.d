/* encoding takes ascii or utf8 only (dt_opt_encoding): another value is refused. */
#pragma D option encoding=latin1

BEGIN
{
	exit(0);
}
