BEGIN /1 == / { exit(0); }
