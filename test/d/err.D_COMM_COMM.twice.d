BEGIN { s = speculation(); } BEGIN { commit(s); commit(s); }
