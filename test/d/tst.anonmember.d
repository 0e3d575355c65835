/* Unnamed struct and union members: their members are the outer type's, at their offsets. */
#pragma D option quiet

struct packet {
	char kind;
	union {
		int word;
		char bytes[4];
	};
	struct {
		short lo;
		struct {
			long deep;
		};
	};
} p;

BEGIN
{
	p.kind = 1;
	p.word = 0x04030201;
	p.lo = -2;
	p.deep = 123456789012;
	printf("%d %d %d %d %d\n", sizeof (struct packet), offsetof(struct packet, word),
	    offsetof(struct packet, bytes), offsetof(struct packet, lo),
	    offsetof(struct packet, deep));
	printf("%d %d %d %d %d\n", p.kind, p.bytes[0], p.bytes[3], p.lo, p.deep);
	exit(0);
}
