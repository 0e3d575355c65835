BEGIN /self->never/ { trace(1); }
