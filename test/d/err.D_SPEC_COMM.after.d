BEGIN { s = speculation(); } BEGIN { commit(s); speculate(s); }
