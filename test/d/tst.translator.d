/*
 * Translators: translator T < S p > { member = expr; ... } and xlate <T>(e).member /
 * xlate <T *>(e)->member, the member's expression evaluated with p standing for e, converted
 * to the member's type; a string member; a translator whose input is a pointer into D memory.
 */
#pragma D option quiet

struct info {
	int doubled;
	char low;
	string name;
	long sum;
};

struct raw {
	int a;
	int b;
};

translator struct info < long v > {
	doubled = v * 2;
	low = v;
	name = v > 10 ? "big" : "small";
	sum = v + 1000000000000;
};

translator struct info < struct raw *r > {
	doubled = r->a * 2;
	sum = r->a + r->b;
	name = "raw";
};

struct raw rw;

BEGIN
{
	x = 300;
	printf("%d %d %s %d\n", xlate <struct info>(x).doubled, xlate <struct info>(x).low,
	    xlate <struct info *>(x + 1)->name, xlate <struct info>(7).sum);
	rw.a = 5;
	rw.b = 6;
	this->rp = (struct raw *)&rw.a; /* D gives a variable no address: a member has one */
	printf("%d %d %s\n", xlate <struct info>(this->rp).doubled,
	    xlate <struct info *>(this->rp)->sum, xlate <struct info>(this->rp).name);
	exit(0);
}
