BEGIN { s = speculation(); } BEGIN { commit(s); @a = count(); }
