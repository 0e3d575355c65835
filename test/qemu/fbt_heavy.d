/* A heavy D program on every fbt probe (docs/fbt.md, "Heavy programs"): thirteen clauses on
 * fbt:::entry and fbt:::return with counts, stack(), ustack(), copyin, copyinstr,
 * speculations and printf, and two counts the test compares: the traced kernel-call
 * function's entries ($$1) against kercall:::entry. */
fbt:::entry { @n["entry"] = count(); }
fbt:::return { @n["return"] = count(); }
fbt:::entry /(timestamp >> 6 & 0x3ff) == 0/ { @ks[stack()] = count(); }
fbt:::return /(timestamp >> 6 & 0x3ff) == 1/ { @us[ustack()] = count(); }
fbt:::entry /(timestamp >> 6 & 0x3ff) == 2/ { printf("@@P %s %x\n", probefunc, arg0); }
fbt:::entry /execname == "client" && (timestamp >> 6 & 0xff) == 3/ { in = *(int *)copyin(arg1, 4); }
fbt:::return /execname == "client" && (timestamp >> 6 & 0xff) == 4/ { s = copyinstr(arg1); }
fbt:::entry /!spec && (timestamp >> 6 & 0xff) == 5/ { spec = speculation(); }
fbt:::entry /spec/ { speculate(spec); printf("@@S %s\n", probefunc); }
fbt:::return /spec && (timestamp >> 6 & 1)/ { commit(spec); spec = 0; }
fbt:::return /spec/ { discard(spec); spec = 0; }
fbt:::entry /probefunc == $$1/ { @kf = count(); }
fbt:::return /arg1 == 0/ { @zero = count(); }
kercall:::entry { @k = count(); }
END { printa("@@N %s %@d\n", @n); printa("@@F %@d\n", @kf); printa("@@K %@d\n", @k); }
