// SPDX-License-Identifier: MIT
// The freed-ring check's words, shared by its two sides: kt_fault's mode 13 (the ring's owner,
// whose reader thread looks for the pattern) and kt_smp's check_freed_ring (which writes it
// into the next ring on the same memory). docs/smp.md, "Address spaces": a freed map leaves
// every CPU before the free returns.
#ifndef KT_RING_SPY_H
#define KT_RING_SPY_H

#define SPY_PATTERN 0x5eed7a91u     // kt_smp's events carry it; the reader looks for it
#define SPY_SAW 77                  // the reader ends its process with this status if it sees it
#define SPY_BUFS 2u                 // each ring's buffers: the owner's and kt_smp's

#endif
