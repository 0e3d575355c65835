BEGIN { denormalize(@nope); }
