BEGIN { @a = count(); trunc(@a, @a); }
