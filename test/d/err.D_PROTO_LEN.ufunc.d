/*
 * ufunc( ) takes one address (_usymaddr ufunc(uintptr_t)): two are a prototype mismatch.
 */
BEGIN
{
	@[ufunc(arg0, arg1)] = count();
}
