/* printf's %e %f %g (E, F, G) of float and double members: D does no arithmetic on them, but
 * prints their bits as printf(3) does (here a double and a float set through their bits). */
#pragma D option quiet

struct vals {
	double d;
	float f;
	double big;
	double tiny;
};

BEGIN
{
	this->v = (struct vals *)alloca(sizeof (struct vals));
	*(uint64_t *)&this->v->d = 0x400921fb54442d18;	/* pi */
	*(uint32_t *)&this->v->f = 0xc0490fdb;		/* -pi, a float */
	*(uint64_t *)&this->v->big = 0x4415af1d78b58c40;	/* 1e20 */
	*(uint64_t *)&this->v->tiny = 0x3e45798ee2308c3a;	/* 1e-8 */
	printf("%f %e %g\n", this->v->d, this->v->d, this->v->d);
	printf("%.10f %E %G\n", this->v->f, this->v->f, this->v->f);
	printf("%f %e %g\n", this->v->big, this->v->big, this->v->big);
	printf("%.12f %.3e %g\n", this->v->tiny, this->v->tiny, this->v->tiny);
	printf("[%12.4f] [%-12.2e] [%+g] [%012.3f]\n", this->v->d, this->v->d, this->v->d,
	    this->v->d);
	printf("%#g %.17g\n", this->v->d, this->v->d);
	exit(0);
}
