/* may be empty: contention depends on the batch's timing (the test checks that some batch has it) */
lockstat:::adaptive-block /demo/ { @lock_block_time[arg0] = sum(arg1); }
END { printa("@@P lock_block_time t %d %@d\n", @lock_block_time); }
