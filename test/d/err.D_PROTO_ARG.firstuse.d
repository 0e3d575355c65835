/* without a declaration, the first use sets the key types */
BEGIN
{
	seen["a", 1] = 1;
	seen[1, 1] = 2;
}
