#pragma D option quiet

/*
 * tick-100hz and profile-50ms fire at their rates while tick-1s waits a second. Probes due at
 * the same instant fire in no set order (in DTrace either), so the counts are checked within
 * one firing of what the second holds.
 */
tick-100hz
{
	ticks++;
}

profile-50ms
{
	prof++;
}

tick-1s
{
	printf("ticks %s\n", ticks >= 99 && ticks <= 101 ? "100" : lltostr(ticks));
	printf("profile %s\n", prof >= 19 && prof <= 21 ? "20" : lltostr(prof));
	exit(0);
}
