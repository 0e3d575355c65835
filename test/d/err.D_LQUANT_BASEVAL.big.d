BEGIN { @a = lquantize(1, 2147483657, 10, 1); }
