# SPDX-License-Identifier: MIT
# TAP lines for the capture checks (irq_rate_check.py, period_check.py): numbered from a base,
# so a script's own lines can come first, each with an optional label (the board).


class Tap:
    def __init__(self, base=0, label=''):
        self.n = base
        self.lab = (label + ': ') if label else ''

    def ok(self, cond, what):
        self.n += 1
        print(('ok' if cond else 'not ok') + ' %d - %s%s' % (self.n, self.lab, what))
