/*
 * #pragma D option strsize takes a size suffix as every size option does (libdtrace's
 * dt_opt_size): 2k is 2048 bytes, so a string holds at most 2047 characters. A string
 * doubled past that is cut to strsize - 1.
 */
#pragma D option quiet
#pragma D option strsize=2k

BEGIN
{
	this->s = "0123456789";
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	printf("%d\n", strlen(this->s));
	this->s = strjoin(this->s, this->s);
	printf("%d\n", strlen(this->s));
	exit(0);
}
