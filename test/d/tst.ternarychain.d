/* A chain of ?: in the else arms compiles however deep (libdtrace frees the left arm's
 * register before the right arm's: a sched/whatfor.d of the Guide has seven). */
#pragma D option quiet

BEGIN
{
	x = 6;
	printf("%s\n", x == 1 ? "one" : x == 2 ? "two" : x == 3 ? "three" :
	    x == 4 ? "four" : x == 5 ? "five" : x == 6 ? "six" : x == 7 ? "seven" :
	    x == 8 ? "eight" : "many");
	exit(0);
}
