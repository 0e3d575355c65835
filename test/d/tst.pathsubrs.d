#pragma D option quiet
BEGIN { printf("[%s] [%s]\n", basename("/usr/lib/libc.so"), dirname("/usr/lib/libc.so")); }
BEGIN { printf("[%s] [%s]\n", basename("/usr/lib//"), dirname("/usr/lib//")); }
BEGIN { printf("[%s] [%s]\n", basename("file"), dirname("file")); }
BEGIN { printf("[%s] [%s]\n", basename("///"), dirname("///")); }
BEGIN { printf("[%s] [%s]\n", basename(""), dirname("")); }
BEGIN { printf("[%s]\n", cleanpath("/a/b/../c//./d/.")); }
BEGIN { printf("[%s] [%s]\n", strrchr("a.b.c", '.'), strrchr("abc", 'x')); }
BEGIN { printf("%x %x %x\n", htons(0x1234), htonl(0x12345678), ntohll(0x0102030405060708)); }
BEGIN { exit(0); }
