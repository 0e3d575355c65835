/* an identifier cannot start with a digit: 1st is the constant 1, then the name st */
BEGIN
{
	1st = 2;
}
