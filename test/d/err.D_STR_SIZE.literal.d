#pragma D option strsize=8
BEGIN { trace("longer than eight"); }
