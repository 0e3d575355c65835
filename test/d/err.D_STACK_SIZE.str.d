BEGIN { stack("x"); }
