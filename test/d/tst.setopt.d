/* setopt( ) is carried out by the consumer as it reads the clause's record: quiet turned off
 * and on between firings changes how later records print; an unknown option, a bad value or
 * a buffer size (fixed once tracing runs) is reported and tracing goes on */
#pragma D option quiet

BEGIN
{
	setopt("nosuchoption");
	setopt("quiet", "perhaps");
	setopt("bufsize", "1m");
	printf("quiet\n");
	setopt("quiet", "no");
}

BEGIN
{
	printf("loud");
	setopt("quiet");
}

BEGIN
{
	printf("quiet again\n");
	setopt("aggsortrev", "yes");
	@[1] = count();
	@[2] = count();
	@[2] = count();
	exit(0);
}
