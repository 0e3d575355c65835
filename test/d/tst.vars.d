#pragma D option quiet

int n;
self int depth;

BEGIN
{
	n = 5;
	n += 3;
	n *= 2;
	n--;
	++n;
	printf("n=%d\n", n);
	x = n++;
	printf("x=%d n=%d\n", x, n);
	s = "global string";
	printf("%s\n", s);
	a["one"] = 1;
	a["two"] = 2;
	a["two"] += 40;
	printf("%d %d %d\n", a["one"], a["two"], a["three"]);
	b[1, "x"] = 10;
	b[2, "y"] = 20;
	printf("%d %d %d\n", b[1, "x"], b[2, "y"], b[1, "y"]);
	self->depth = 3;
	self->name = "thread";
	this->tmp = self->depth * 100;
	printf("%d %s %d\n", self->depth, self->name, this->tmp);
	a["one"] = 0;
	printf("%d\n", a["one"]);
}

BEGIN
/this->tmp == 300/
{
	printf("clause-local kept across clauses: %d\n", this->tmp);
	exit(0);
}
