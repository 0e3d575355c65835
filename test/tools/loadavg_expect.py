#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The load average a known load gives, from the exponential averages' definition (Solaris's
avenrun: 1, 5 and 15 minutes, one sample a second, in 1/256ths), not from the kernel's code:
from the averages START read when the load began, N threads runnable for the K samples taken
before STOP, each average i moves to START_i * d_i^K + N * (1 - d_i^K), d_i = exp(-1 s / its
span). K, the samples the kernel says it took between (its `kloadavg_due moved by K seconds of
ticks), must be one a second of the D timestamps between START and STOP (their whole seconds,
or one less: the ticks' seconds and the timestamps' need not be in phase). Each average at
STOP must be the expected one within SLACK 256ths (the kernel's fixed point: 16 fraction bits
a step, its decay constants in units of 2^-13). Prints one line per check; exit 1 when one fails.
usage: loadavg_expect.py [--scale S] N K START_NS STOP_NS A0 A1 A2 B0 B1 B2 [SLACK]
       (A: the averages at START, B: at STOP, in 1/256ths, or 1/S with --scale S: 65536
       for Solaris's hp_avenrun; SLACK in those units)"""
import math
import sys


def main():
    args = sys.argv[1:]
    scale = 256.0
    if len(args) > 1 and args[0] == "--scale":
        scale = float(args[1])
        args = args[2:]
    if len(args) not in (10, 11) or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if args[:1] in (["-h"], ["--help"]) else 2
    n, k = int(args[0]), int(args[1])
    t0, t1 = int(args[2]), int(args[3])
    a = [int(x) / scale for x in args[4:7]]
    b = [int(x) / scale for x in args[7:10]]
    slack = (int(args[10]) if len(args) == 11 else 2 * scale / 256.0) / scale
    k_hi = t1 // 10**9 - t0 // 10**9
    good = k_hi - 1 <= k <= k_hi and k > 0
    bad = not good
    print("%s %d samples in %.3f s (%d whole seconds of the timestamps)"
          % ("ok" if good else "BAD", k, (t1 - t0) / 1e9, k_hi))
    for i, minutes in enumerate((1, 5, 15)):
        d = math.exp(-1.0 / (60 * minutes))
        want = a[i] * d ** k + n * (1 - d ** k)
        good = abs(b[i] - want) <= slack
        bad += not good
        print("%s %d-minute load %.4f, expected %.4f (%d threads, %d samples from %.4f)"
              % ("ok" if good else "BAD", minutes, b[i], want, n, k, a[i]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
