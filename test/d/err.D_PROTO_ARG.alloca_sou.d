/*
 * A struct passed by value to a subroutine that takes an integer is refused by the compiler
 * (alloca(*(struct my_req *)0) must not compile into an object the verifier then refuses for
 * its invalid argument type; fuzz_d_compile looks for such pairs).
 */
struct my_req { int op; int len; };

BEGIN
{
	trace(alloca(*(struct my_req *)0));
	exit(0);
}
