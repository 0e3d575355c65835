/* counts per probe of the thread providers (but the two a capture cannot fire) */
sched:::, proc::: /demo && probename != "remain-cpu" && probename != "surrender"/ { @per_probe[probeprov, probename] = count(); }
END { printa("@@P per_probe c %s %s %@d\n", @per_probe); }
