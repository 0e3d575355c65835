/* ARGS: -b 1k */
/* a 1k switch buffer holds 64 of these 16-byte records per switchrate period */
#pragma D option quiet

tick-1ms
/i++ < 200/
{
	trace(i);
}

tick-1ms
/i > 200/
{
	exit(0);
}
