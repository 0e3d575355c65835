BEGIN { s = speculation(); } BEGIN { trace(1); commit(s); }
