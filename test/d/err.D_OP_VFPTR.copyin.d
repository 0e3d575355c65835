/* -= of a void * (copyin's) into an integer */
int p;
BEGIN
{
	p = 1;
	p -= copyin(0, 4);
}
