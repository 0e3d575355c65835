/* two members of one name (libdtrace reports the CTF failure) */
struct s { int a; char a; };

BEGIN
{
	
	exit(0);
}
