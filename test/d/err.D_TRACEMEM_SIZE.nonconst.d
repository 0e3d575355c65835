BEGIN { n = 4; tracemem("abc", n); }
