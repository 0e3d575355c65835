/* a macro variable dtrace does not define */
BEGIN
{
	trace($nosuchmacro);
}
