/* one storage class per declaration */
extern self int x;

BEGIN
{
	exit(0);
}
