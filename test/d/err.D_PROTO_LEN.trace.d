BEGIN { trace(1, 2); }
