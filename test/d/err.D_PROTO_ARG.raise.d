BEGIN { raise("x"); }
