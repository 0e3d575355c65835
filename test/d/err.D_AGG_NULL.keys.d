BEGIN { @a[1]; }
