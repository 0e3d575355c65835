// SPDX-License-Identifier: MIT
// The red-team rerun's attacks (rerun.c): mode ATK_FPU_CONTROL.. (kt_hostile/hostile.h).
#ifndef KT_ATTACK_RERUN_H
#define KT_ATTACK_RERUN_H
int rerun_attack(unsigned mode, int param);
int hostile_runner(void);   // kt_attack.c: the runner's pid
#endif
