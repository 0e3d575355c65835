BEGIN { s = speculation(); } BEGIN { speculate(s); chill(10); }
