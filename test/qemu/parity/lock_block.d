/* may be empty: contention depends on the batch's timing (the test checks that some batch has it) */
/* contention: who blocked behind whom (arg2: the owner) */
lockstat:::adaptive-block /demo/ { @lock_block[execname, arg0, arg2] = count(); }
END { printa("@@P lock_block c %s %d %d %@d\n", @lock_block); }
