profile-5001hz { exit(0); }
