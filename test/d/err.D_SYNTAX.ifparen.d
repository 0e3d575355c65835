BEGIN
{
	if x > 1 { trace(1); }
}
