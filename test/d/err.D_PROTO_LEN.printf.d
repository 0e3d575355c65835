BEGIN { printf(); }
