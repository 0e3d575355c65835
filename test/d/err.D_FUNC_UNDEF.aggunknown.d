BEGIN { @a = frobnicate(1); }
