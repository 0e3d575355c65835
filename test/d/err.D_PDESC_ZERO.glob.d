kercall::NoSuchCall*:entry { trace(1); }
