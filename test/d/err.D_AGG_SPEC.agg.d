BEGIN { s = speculation(); } BEGIN { speculate(s); @a = count(); }
