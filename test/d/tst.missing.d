/* missing array elements and thread-locals read as 0 or ""; not-found string searches give "" */
#pragma D option quiet

BEGIN
{
	a["x"] = "y";
	n[1] = 5;
	self->s = "set";
	printf("[%s] [%d] [%s] [%s] [%s]\n", a["missing"], n[2], strchr("abc", 'x'),
	    strstr("abc", "zz"), self->s);
	self->s = "";
	printf("[%s] %d\n", self->s, strlen(a["missing"]));
	exit(0);
}
