BEGIN { @a = lquantize(1, 0, 100, 10); @a = lquantize(1, 10, 100, 10); }
