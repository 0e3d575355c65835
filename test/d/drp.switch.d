/* ARGS: -b 1k */
/* a 1k switch buffer holds 32 of these 32-byte records per switchrate period */
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
