/*
 * A struct passed by value to a subroutine that takes an integer is refused (issue 25:
 * fuzz_d_compile found alloca(*(struct my_req *)0) compiled, then the verifier refused the
 * object for its invalid argument type).
 */
struct my_req { int op; int len; };

BEGIN
{
	trace(alloca(*(struct my_req *)0));
	exit(0);
}
