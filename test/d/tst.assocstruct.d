/*
 * Struct values in associative arrays, as DTrace has them: a member assignment creates the
 * element; a member of an element never assigned reads as zero (or ""); members of every
 * integer size, string members, compound assignment and ++ on members, several keys, a
 * whole struct copied in and out, and an element's string member copied onto itself.
 */
#pragma D option quiet

struct req {
	char c;
	short s;
	int id;
	uint64_t t;
	string name;
};

struct req r[int, string];
struct req tmp, out;

BEGIN
{
	r[1, "a"].id = 10;
	r[1, "a"].name = "first";
	r[2, "b"].c = 'z';
	r[2, "b"].t = 81985529216486895;
	r[1, "a"].id += 5;
	r[1, "a"].s--;
	r[2, "b"].s++;
	r[1, "a"].name = r[1, "a"].name;
	tmp.id = 7;
	tmp.name = "copy";
	r[3, "c"] = tmp;
	tmp.id = 8;
	out = r[3, "c"];
	printf("%d %d %s %d\n", r[1, "a"].id, r[1, "a"].s, r[1, "a"].name, r[1, "a"].c);
	printf("%c %x %d\n", r[2, "b"].c, r[2, "b"].t, r[2, "b"].s);
	printf("%d %s %d\n", r[3, "c"].id, r[3, "c"].name, out.id);
	printf("[%s] %d %d\n", r[4, "d"].name, r[4, "d"].id, r[4, "d"].t);
	printf("%d\n", r[1, "b"].id);
	exit(0);
}

END
{
	printf("%d %s\n", r[1, "a"].id, r[3, "c"].name);
}
