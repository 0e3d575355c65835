/* An associative array whose value is a struct with no definition. */
struct nodef r[int];

BEGIN
{
	exit(0);
}
