#pragma D option quiet

int i;

tick-1ms
/i < 50/
{
	@l["by five"] = lquantize(i, 10, 40, 5);
	i++;
}

tick-1ms
/i >= 50/
{
	exit(0);
}
