/* on a capture: every tick-N probe fires however many a program has, wherever they are among
 * its probes: seventy, after the hundred-odd of kercall:::entry (each fires within the
 * capture: their periods are a quarter of its span at most) */
#pragma D option quiet

kercall:::entry
{
	calls++;
}

tick-200us, tick-201us, tick-202us, tick-203us, tick-204us, tick-205us, tick-206us, tick-207us,
tick-208us, tick-209us
/!seen[probename]/
{
	seen[probename] = 1;
	fired++;
}

tick-210us, tick-211us, tick-212us, tick-213us, tick-214us, tick-215us, tick-216us, tick-217us,
tick-218us, tick-219us
/!seen[probename]/
{
	seen[probename] = 1;
	fired++;
}

tick-220us, tick-221us, tick-222us, tick-223us, tick-224us, tick-225us, tick-226us, tick-227us,
tick-228us, tick-229us
/!seen[probename]/
{
	seen[probename] = 1;
	fired++;
}

tick-230us, tick-231us, tick-232us, tick-233us, tick-234us, tick-235us, tick-236us, tick-237us,
tick-238us, tick-239us
/!seen[probename]/
{
	seen[probename] = 1;
	fired++;
}

tick-240us, tick-241us, tick-242us, tick-243us, tick-244us, tick-245us, tick-246us, tick-247us,
tick-248us, tick-249us
/!seen[probename]/
{
	seen[probename] = 1;
	fired++;
}

tick-250us, tick-251us, tick-252us, tick-253us, tick-254us, tick-255us, tick-256us, tick-257us,
tick-258us, tick-259us
/!seen[probename]/
{
	seen[probename] = 1;
	fired++;
}

tick-260us, tick-261us, tick-262us, tick-263us, tick-264us, tick-265us, tick-266us, tick-267us,
tick-268us, tick-269us
/!seen[probename]/
{
	seen[probename] = 1;
	fired++;
}

END
{
	printf("%d tick-N probes fired of 70; kercall entries %s\n", fired, calls > 0 ? "seen" : "none");
}
