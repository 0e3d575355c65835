#pragma D option quiet
BEGIN { s = speculation(); speculate(s); printf("kept\n"); }
BEGIN { commit(s); n++; }
BEGIN { exit(0); }
