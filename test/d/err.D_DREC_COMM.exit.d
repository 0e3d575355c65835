BEGIN { s = speculation(); } BEGIN { commit(s); exit(0); }
