BEGIN { @a = strlen("x"); }
