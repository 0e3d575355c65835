BEGIN { s = speculation(); } BEGIN { speculate(s); exit(0); }
