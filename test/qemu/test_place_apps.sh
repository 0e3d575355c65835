#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How an image places its programs (scripts/place-apps.sh, run by user/module.mk): slots in the
# image's order, a board's own wishes kept, RAM first-fit largest first and aligned on its
# size; and, when the image does not fit, one clear message from make instead of a link error
# or a silent overlap. Host only (make stops before compiling anything). Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 1
p=scripts/place-apps.sh
. test/qemu/tap_lib.sh
eq() { [ "$1" = "$2" ]; ok $? "$3 (got '$1')"; }

# netduinoplus2's numbers: 7 slots, RAM 0x2000a000-0x20018000, 8 KB slots, ktest wants 16 KB.
got=$($p ktest 0x2000a000 0x20018000 7 ktest:-:0x4000:- kt_peer:-:0x2000:- kt_fault:-:0x2000:-)
eq "$got" "ktest:0:0x2000c000:0x4000 kt_peer:1:0x2000a000:0x2000 kt_fault:2:0x20010000:0x2000 " \
   "a 16 KB program is aligned on 16 KB and the small ones fill around it"
got=$($p demo 0x2000a000 0x20018000 7 a:-:0x2000:- b:-:0x2000:- c:-:0x2000:- d:-:0x2000:- e:-:0x2000:- f:-:0x2000:- g:-:0x2000:-)
eq "$(echo $got | wc -w)" 7 "seven 8 KB programs fill the seven slots"
case $got in *ERROR*) ok 1 "no error for a full but fitting image";; *) ok 0 "no error for a full but fitting image";; esac
got=$($p big 0x20040000 0x20120000 28 dtrace:0:0x80000:0x20180000 a:-:0x8000:- b:-:0x8000:-)
eq "$got" "dtrace:0:0x20180000:0x80000 a:1:0x20040000:0x8000 b:2:0x20048000:0x8000 " \
   "a board's own placement (slot, RAM base) is kept, the others placed after it"
got=$($p x 0x2000a000 0x20018000 7 a:-:0x2000:- b:-:0x2000:- c:-:0x2000:- d:-:0x2000:- e:-:0x2000:- f:-:0x2000:- g:-:0x2000:- h:-:0x2000:-)
case $got in ERROR:x:_h_needs_flash_slot_7*) r=0;; *) r=1;; esac
ok $r "an eighth program on a 7-slot board is refused, naming it ($got)"
got=$($p x 0x2000a000 0x20018000 7 a:-:0x8000:- b:-:0x8000:-)
case $got in ERROR:x:_no_room_for_the_32768_bytes_of_RAM_of_b*) r=0;; *) r=1;; esac
ok $r "RAM that does not fit is refused, naming the program and its size"

# Through make: an image too large for netduinoplus2 stops with the placement's message.
many="init srv client ticker driver worker kt_peer"
out=$(make --no-print-directory BOARD=netduinoplus2 APPS="$many" \
      build/netduinoplus2/run-${many// /-}.elf 2>&1)
rc=$?
[ $rc != 0 ] && printf '%s\n' "$out" | grep -q "netduinoplus2: image run-.*needs flash slot 7: the board has 7"
ok $? "make run APPS= with 9 programs on netduinoplus2 says which one does not fit"
out=$(make --no-print-directory APPS=nosuch_app build/mps2-an385/run-nosuch_app.elf 2>&1)
[ $? != 0 ] && printf '%s\n' "$out" | grep -q "APPS: no program 'nosuch_app'"
ok $? "APPS naming no program says so, and how to make one"
