/* ARGS: -b 512 -x bufpolicy=fill */
/* fill: tracing stops when the buffer is full; END still fits (reserved) */
#pragma D option quiet

tick-1ms
{
	printf("%d ", ++i);
}

END
{
	printf("\nend\n");
}
