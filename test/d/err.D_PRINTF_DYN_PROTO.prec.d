BEGIN { printf("%s %.*d", "a"); }
