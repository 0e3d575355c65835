/* the inline is not defined inside its own definition */
inline int depth = depth + 1;
