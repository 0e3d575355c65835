/* DTrace's DIF has 8 registers and %r0 is always 0 (DIF_DIR_NREGS): an expression that keeps
 * eight values live at once, each right operand nested inside the last, cannot be compiled. */
BEGIN
{
	v = 1;
	trace(v + (v + (v + (v + (v + (v + (v + (v))))))));
}
