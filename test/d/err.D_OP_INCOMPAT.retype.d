BEGIN { x = 1; x = "now a string"; }
