tick-1us { exit(0); }
