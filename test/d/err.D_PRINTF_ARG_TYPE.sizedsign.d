/* %lu is libdtrace's "unsigned long": an argument of another encoding (here a signed long)
 * is refused, as ctf_type_compat refuses it (size and signedness must match). */
BEGIN
{
	printf("%lu\n", -1L);
}
