/* clause-local variables cannot be associative arrays */
this string names[int];

BEGIN
{
	exit(0);
}
