/* A timer probe named after more than 64 others still fires: the host keeps each timer's next
 * firing by probe index, however many probes come first (kercall's entries and returns here),
 * and the compiler numbers timers in their own range, whatever ids came before. */
#pragma D option quiet

kercall:::entry, kercall:::return
{
}

tick-10ms
{
	printf("the timer fired\n");
	exit(0);
}
