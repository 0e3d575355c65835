nosuchprovider:::entry { trace(1); }
