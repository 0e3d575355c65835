// SPDX-License-Identifier: MIT
// Attack 26, the channels' names (names.c), and what the runner checks after it.
#ifndef KT_ATTACK_NAMES_H
#define KT_ATTACK_NAMES_H
#define NAMES_FLOOD_FMT "flood%d"   // the attacker's flood of names: flood0, flood1, ...
#define NAMES_FLOOD_MAX 2           // at most its quota of names (KLIM_NAMES)
int names_attack(int runner_chid);
#endif
