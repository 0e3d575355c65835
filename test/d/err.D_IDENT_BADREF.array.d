/* an associative array is not used as a scalar */
BEGIN
{
	hits["a"] = 1;
	trace(hits);
}
