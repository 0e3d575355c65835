BEGIN { x = progenyof(trace()); }
