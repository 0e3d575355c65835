/* ARGS: -q */
/* enum constants in expressions and predicates, values counted on from an assignment, and
 * the enum's type (int) for variables and casts. */
enum colors { RED, GREEN = 5, BLUE };
enum shades { WHITE = -1, BLACK = RED + 2 * BLUE };

BEGIN
/BLUE == 6 && WHITE < RED/
{
	printf("RED=%d GREEN=%d BLUE=%d WHITE=%d BLACK=%d\n", RED, GREEN, BLUE, WHITE, BLACK);
	printf("sizeof (enum colors) = %d, sizeof (BLUE) = %d\n", sizeof (enum colors), sizeof (BLUE));
	exit(0);
}
