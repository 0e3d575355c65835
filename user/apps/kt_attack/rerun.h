// SPDX-License-Identifier: MIT
// The hostile suite's attacks 17 to 24 (rerun.c): mode ATK_FPU_CONTROL.. (kt_hostile/hostile.h).
#ifndef KT_ATTACK_RERUN_H
#define KT_ATTACK_RERUN_H
int rerun_attack(unsigned mode, int param);
int hostile_runner(void);   // kt_attack.c: the runner's pid
#endif
