/* -> on a pointer to an integer */
int *ip;

BEGIN
{
	ip->a = 1;
	exit(0);
}
