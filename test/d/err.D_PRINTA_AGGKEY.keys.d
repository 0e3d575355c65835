BEGIN { @a[1] = count(); @b = count(); printa("%d %@d %@d", @a, @b); }
