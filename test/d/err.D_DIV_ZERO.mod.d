BEGIN { x = 10 % (2 - 2); }
