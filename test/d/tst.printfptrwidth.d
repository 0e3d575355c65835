#pragma D option quiet
BEGIN { printf("[%?d]\n", 42); exit(0); }
