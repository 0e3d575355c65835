BEGIN { x = 10; @a = lquantize(1, 0, x, 1); }
