#include <stdio.h>
BEGIN { exit(0); }
