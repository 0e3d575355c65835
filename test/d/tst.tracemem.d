/* tracemem: bytes of D memory as a dump; short and multi-line, non-printable bytes as '.',
 * the string's padding included when the size reaches past its end. */
#pragma D option quiet

BEGIN
{
	s = "hello, tracemem!";
	tracemem(s, 20);
	tracemem(probename, 3);
	t = strjoin("tab\there", "");
	tracemem(t, 9);
	exit(0);
}
