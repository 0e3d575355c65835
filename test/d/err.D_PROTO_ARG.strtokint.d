/* strtok( ) takes a string or NULL first: another integer is D_PROTO_ARG. */
BEGIN
{
	trace(strtok(1, ","));
}
