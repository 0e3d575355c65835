/* ARGS: -b 64 -x bufpolicy=fill */
#pragma D option quiet

END
{
	printf("%s %s %s\n", "a", "b", "c");
}
