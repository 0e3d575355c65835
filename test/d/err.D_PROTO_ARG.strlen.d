BEGIN { x = strlen(1); }
