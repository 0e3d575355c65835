#pragma D option quiet
tick-5000hz { exit(0); }
