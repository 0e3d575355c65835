BEGIN { tracemem("abc", 0); }
