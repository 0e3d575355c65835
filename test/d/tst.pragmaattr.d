/* #pragma D attributes of identifiers the program defines, before or after */
#pragma D option quiet
#pragma D attributes Stable/Stable/Common total
#pragma D attributes evolving/EVOLVING counter

int total;

BEGIN
{
	counter = 2;
	total = counter + 1;
	printf("%d\n", total);
	exit(0);
}
