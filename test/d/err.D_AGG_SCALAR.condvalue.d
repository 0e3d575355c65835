/* An aggregation in a ?: whose value is used is refused: only a ?: statement (its value
 * dropped) runs an aggregating arm (tst.condagg.d). */
BEGIN
{
	x = 1 ? @a = count() : 1;
}
