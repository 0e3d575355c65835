BEGIN { @a = count(); printf("%d", @a); }
