BEGIN { @a = sum("x"); }
