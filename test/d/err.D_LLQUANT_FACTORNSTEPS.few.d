BEGIN { @a = llquantize(1, 10, 0, 6, 5); }
