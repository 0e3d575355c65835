BEGIN { s = speculation(); } BEGIN { trace(1); speculate(s); }
