BEGIN { @a = lquantize(1, 0, 100, 10); @a = lquantize(1, 0, 100, 20); }
