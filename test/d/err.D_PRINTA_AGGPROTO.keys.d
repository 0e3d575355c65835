BEGIN { @a[1] = count(); @b["x"] = count(); printa("%d %@d %@d", @a, @b); }
