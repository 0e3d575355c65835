/* a member no struct dev_info has, as libdtrace says of any struct */
sdt:::interrupt-start
{
	this->devi = (struct dev_info *)arg0;
	trace(this->devi->devi_nosuch);
}
