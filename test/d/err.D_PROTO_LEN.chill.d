BEGIN { chill(); }
