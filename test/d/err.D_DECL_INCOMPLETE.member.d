/* a member of a struct type that is only declared */
struct fwd;
struct s { struct fwd f; };

BEGIN
{
	
	exit(0);
}
