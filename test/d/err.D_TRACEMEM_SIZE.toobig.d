BEGIN { tracemem("abc", 1025); }
