BEGIN { printa("%d", 123); }
