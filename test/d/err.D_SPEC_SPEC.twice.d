BEGIN { s = speculation(); } BEGIN { speculate(s); speculate(s); }
