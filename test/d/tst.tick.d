#pragma D option quiet

tick-100hz
{
	ticks++;
}

tick-1s
/ticks >= 100/
{
	printf("ticks %d\n", ticks);
	exit(0);
}

profile-50ms
{
	prof++;
}

END
{
	printf("profile %d\n", prof);
}
