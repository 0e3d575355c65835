BEGIN { printf("%Z", 1); }
