/* setopt( ) changes how the consumer sorts what it prints next: aggsortkey, aggsortkeypos,
 * aggsortrev take effect from the record on. */
#pragma D option quiet

BEGIN
{
	@a["b", 1] = sum(3);
	@a["a", 2] = sum(2);
	@a["c", 0] = sum(1);
	printa("%s %d %@d\n", @a);
	setopt("aggsortkey");
	printa("%s %d %@d\n", @a);
	setopt("aggsortkeypos", "1");
	printa("%s %d %@d\n", @a);
	setopt("aggsortrev", "yes");
	printa("%s %d %@d\n", @a);
	setopt("aggsortkey", "false");
	printa("%s %d %@d\n", @a);
	exit(0);
}
