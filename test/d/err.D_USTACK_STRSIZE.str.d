BEGIN { ustack(1, "x"); }
