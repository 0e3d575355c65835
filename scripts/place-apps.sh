#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Places the programs of one boot image in the board's program memory (user/module.mk runs it
# once per image): each program gets a flash slot (or several in a row: a board's
# <name>_FLASH_SLOTS, for a program larger than one) and a RAM region the MPU can map (a power
# of two aligned on its size). A program's own wishes come first (a board's <name>_SLOT,
# <name>_RAM_BASE), then the rest in the image's order, each in the first free slots and the
# lowest free RAM that fits.
#   scripts/place-apps.sh IMAGE RAM_BASE RAM_END MAX_SLOTS name:slot:ramsize:rambase:nslots...
# (slot and rambase "-" when the program does not ask; nslots the flash slots it takes).
# Prints "name:slot:rambase:ramsize" words, or one word "ERROR:<message with _ for spaces>"
# when the image does not fit.
. "$(dirname "$0")/script_help.sh" && script_help "$0" "${1:-}"
set -u
img=$1 base=$(($2)) end=$(($3)) max=$4; shift 4
err() { m="ERROR:$img: $*"; echo "${m// /_}"; exit 0; }
declare -a names slots rbase rsize nslot used_slot
n=0
for w in "$@"; do
    IFS=: read -r nm s z b k <<<"$w"
    names[n]=$nm; slots[n]=$s; rsize[n]=$((z)); rbase[n]=$b; nslot[n]=${k:-1}; n=$((n + 1))
done
# Flash slots: asked-for ones, then the first free run of as many as the program takes.
for ((i = 0; i < n; i++)); do
    [ "${slots[i]}" != - ] || continue
    for ((j = 0; j < nslot[i]; j++)); do used_slot[$((slots[i] + j))]=1; done
done
free_run() { # first slot s such that s .. s+$1-1 are free
    local s=0 j
    while :; do
        for ((j = 0; j < $1; j++)); do [ -n "${used_slot[s + j]:-}" ] && break; done
        [ $j -eq $1 ] && { echo $s; return; }
        s=$((s + 1))
    done
}
for ((i = 0; i < n; i++)); do
    [ "${slots[i]}" != - ] && continue
    s=$(free_run "${nslot[i]}")
    slots[i]=$s
    for ((j = 0; j < nslot[i]; j++)); do used_slot[$((s + j))]=1; done
done
for ((i = 0; i < n; i++)); do
    [ $((slots[i] + nslot[i])) -le "$max" ] ||
        err "${names[i]} needs flash slot $((slots[i] + nslot[i] - 1)): the board has $max [APP_MAX_SLOTS]: put fewer programs in this image"
done
# RAM: asked-for regions stay; the others go first-fit, each aligned on its size.
overlaps() { # base size: 0 when [base, base+size) meets a placed region
    for ((j = 0; j < n; j++)); do
        [ "${rbase[j]}" = - ] && continue
        local b=$((rbase[j])) z=${rsize[j]}
        [ $(($1 + $2)) -le $b ] || [ $((b + z)) -le $1 ] || return 0
    done
    return 1
}
# Largest first, so that small regions do not break up the room a large one needs.
# (sorted here, stable, not by sort(1): make runs this at every parse, for every image)
order=()
for ((i = 0; i < n; i++)); do
    for ((k = ${#order[@]}; k > 0 && rsize[order[k - 1]] < rsize[i]; k--)); do order[k]=${order[k - 1]}; done
    order[k]=$i
done
for i in "${order[@]}"; do
    [ "${rbase[i]}" = - ] || continue
    z=${rsize[i]}
    a=$(( (base + z - 1) / z * z ))
    while [ $((a + z)) -le "$end" ] && overlaps $a $z; do a=$((a + z)); done
    [ $((a + z)) -le "$end" ] ||
        err "no room for the $z bytes of RAM of ${names[i]} between $(printf 0x%x $base) and $(printf 0x%x $end) with the other programs of the image [${names[*]}]: put fewer programs in this image, or give the program less RAM [RAM in its app.mk]"
    rbase[i]=$(printf '0x%08x' $a)
done
for ((i = 0; i < n; i++)); do printf '%s:%s:%s:0x%x ' "${names[i]}" "${slots[i]}" "${rbase[i]}" "${rsize[i]}"; done
echo
