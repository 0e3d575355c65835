BEGIN { s = speculation(); } BEGIN { s; speculate(s); }
