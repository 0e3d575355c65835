/*
 * An associative array keyed by a struct type that was never defined is refused when it is
 * declared, not compiled into an object the verifier would then refuse.
 */
string names[struct undefined_tag];

BEGIN
{
	exit(0);
}
