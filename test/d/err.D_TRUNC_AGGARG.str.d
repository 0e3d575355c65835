BEGIN { trunc("a"); }
