/* A quantize( ) increment must be scalar: a string is D_PROTO_ARG. */
BEGIN
{
	@q = quantize(1, "two");
}
