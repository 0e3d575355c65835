BEGIN { @a = lquantize(1, "a", 100, 10); }
