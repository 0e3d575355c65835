BEGIN { @a = count(); normalize(@a, "x"); }
