/*
 * The tokens the consumer prints for func( ), sym( ), mod( ), ufunc( ), usym( ), umod( ),
 * uaddr( ), %a and %A: the contract tools/stacksym reads (trace/d/csymaddr.c). trace( )
 * pads as libdtrace's dt_print_sym ("  %-50s"); printa( )'s default keys carry how their
 * rows merge (count, sum, min, max), uaddr's and avg( )'s none.
 */
#pragma D option quiet

BEGIN
{
	trace(func(0x400));
	trace(sym(0x400));
	trace(mod(0x400));
	printf("\n%a %A [%-20A] [%20a]\n", 0x10, 0xc009a, 0x12, 0xffffffff);
	trace(ufunc(0x12));
	trace(usym(0x12));
	trace(umod(0x12));
	trace(uaddr(0x12));
	@c[ufunc(0x12)] = count();
	@c[ufunc(0x14)] = count();
	@c[ufunc(0x14)] = count();
	@s[usym(0x12), uaddr(0x12)] = sum(3);
	@x[func(0x20)] = max(9);
	@v[umod(0x20)] = avg(4);
	exit(0);
}
