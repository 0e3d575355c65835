BEGIN { @a = llquantize(1, 10, 6, 6, 20); }
