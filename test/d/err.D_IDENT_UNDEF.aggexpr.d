BEGIN { x = @a; }
