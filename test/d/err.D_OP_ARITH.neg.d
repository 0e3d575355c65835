/* unary minus wants an arithmetic operand: a string is none */
BEGIN
{
	x = -"text";
}
