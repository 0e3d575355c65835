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
usage: loadavg_expect.py N K START_NS STOP_NS A0 A1 A2 B0 B1 B2 [SLACK]
       (A: the averages at START, B: at STOP, in 1/256ths)"""
import math
import sys


def main():
    if len(sys.argv) not in (11, 12) or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(sys.argv) == 2 else 2
    n, k = int(sys.argv[1]), int(sys.argv[2])
    t0, t1 = int(sys.argv[3]), int(sys.argv[4])
    a = [int(x) / 256.0 for x in sys.argv[5:8]]
    b = [int(x) / 256.0 for x in sys.argv[8:11]]
    slack = (int(sys.argv[11]) if len(sys.argv) == 12 else 2) / 256.0
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
