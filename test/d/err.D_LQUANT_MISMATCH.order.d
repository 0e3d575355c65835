BEGIN { @a = lquantize(1, 100, -100, 10); }
