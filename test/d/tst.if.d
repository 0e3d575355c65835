/* ARGS: -q */
/* if/else in clause bodies, nested, with and without braces, under a predicate whose
 * variable the clause changes before the if (the predicate is evaluated once). */
BEGIN
{
	x = 3;
	if (x > 2) {
		printf("big %d\n", x);
		if (x == 3)
			printf("three\n");
		else
			printf("not three\n");
	} else {
		printf("small\n");
	}
	printf("after\n");
}
BEGIN
/x == 3/
{
	x = 10;
	if (x == 10) printf("pred kept, x now %d\n", x);
	else printf("wrong\n");
	printf("still in clause\n");
}
BEGIN { exit(0); }
