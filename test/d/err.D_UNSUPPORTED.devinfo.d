/* a member Solaris's struct dev_info has and an interrupt's device here has not */
sdt:::interrupt-start
{
	trace(((struct dev_info *)arg0)->devi_node_name);
}
