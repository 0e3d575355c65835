/*
 * Solaris's system-call names are not this kernel's: syscall::read:entry matches nothing and
 * says where the names are (dtrace -l -P syscall), as any description matching no probe does.
 */
syscall::read:entry
{
	@[probefunc] = count();
}
