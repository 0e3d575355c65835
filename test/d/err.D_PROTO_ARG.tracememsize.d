/* tracemem's size is an integer (dt_open.c: tracemem(@, size_t)) */
BEGIN
{
	tracemem("abc", "3");
}
