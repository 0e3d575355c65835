/*
 * An associative array keyed by a struct type that was never defined is refused when it is
 * declared (issue 25: a fuzz run found it compiled, then the verifier refused the object).
 */
string names[struct undefined_tag];

BEGIN
{
	exit(0);
}
