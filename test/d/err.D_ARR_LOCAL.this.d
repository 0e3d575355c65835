/* a clause-local variable is no associative array */
BEGIN
{
	this->seen["a"] = 1;
}
