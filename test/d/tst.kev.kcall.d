/* run over a capture (the runner adds -i): kernel-call entries and returns pair up */
#pragma D option quiet

kercall:::entry
{
	self->depth++;
	entries++;
}

kercall:::return
{
	returns++;
}

END
{
	printf("%s\n", entries > 0 && entries - returns <= 1 && returns - entries <= 1 ?
	    "balanced" : "unbalanced");
}
