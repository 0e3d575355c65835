/* An associative array's value first assigned 0 keeps the 64 bits of a later value, as the
 * per-CPU start times of scripts that write cpustart[cpu] = 0 need past 4.29 s after boot. */
#pragma D option quiet

BEGIN
{
	start[1] = 0;
	start[1] = 0x500000000;
	at["x", 2] = 0;
	at["x", 2] = 0x500000000 + 40;
	printf("%d %d\n", at["x", 2] - start[1], start[1] / 0x100000000);
	exit(0);
}
