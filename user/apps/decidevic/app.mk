# SPDX-License-Identifier: MIT
# decidevic: the process decide kills (user/apps/decide): it blocks on its own channel until
# then.
PRIO  := 10
