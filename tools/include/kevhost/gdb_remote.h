// SPDX-License-Identifier: MIT
// A client of the GDB remote serial protocol, as much of it as reading and writing a target's
// memory takes: connect to any GDB server (QEMU's -gdb/-s, OpenOCD's gdb port, J-Link GDB
// Server, pyOCD, probe-rs), halt, continue, `m`/`M` memory packets. The one client of the host
// tools: kevprobe (the probe path), kevrtt (RTT through a stand-in probe) and kevdump
// (post-mortem reading of the trace ring).
#ifndef KEVHOST_GDB_REMOTE_H
#define KEVHOST_GDB_REMOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <kevhost/kev_mem.h>

struct gdbr {
    int fd;
    bool noack;         // QStartNoAckMode accepted
    bool running;       // after gdbr_cont, until a stop reply
    bool exited;        // the target ended (W/X reply, or the server closed the connection)
    int exit_status;    // from W
    size_t max_mem;     // bytes per m/M packet (from the server's PacketSize)
    char *pkt;          // a packet's body, sent or received (gdbr_connect allocates it)
    size_t pkt_cap;
    uint8_t in[65536];  // received bytes not yet consumed: in[in_pos..in_len)
    size_t in_len, in_pos;
    char err[200];      // what went wrong, for the caller's message
    // The exchange's deadline (gdbr_deadline; 0: none) and what the server sent meanwhile
    // that was no answer: bytes outside packets, console ('O') packets, an unfinished packet.
    uint64_t deadline_ms;
    unsigned budget_ms;
    size_t junk, console, partial;
    bool interrupted;   // a wait was cut short by the caller's flag (gdbr_cancel_on)
    // gdbr_read's bytes and the host's time spent in it (kevprobe says its read rate)
    uint64_t read_bytes, read_ns;
};

// "host:port", "port" (localhost) or "unix:PATH" (a UNIX socket: QEMU's -gdb
// unix:PATH,server=on,wait=off, which needs no free port), tried every 100 ms for up to
// wait_ms while the server starts (GDBR_WAIT_MS: the tools' default). The server halts the target on connection (QEMU
// does); gdbr_connect leaves it halted. 0, or -1 with g->err set; gdbr_close is due either way.
#define GDBR_WAIT_MS 5000u
int gdbr_connect(struct gdbr *g, const char *where, unsigned wait_ms);
// The process's flag that a signal handler sets (NULL: none): from then on a wait of any
// connection that the signal interrupts ends at once when the flag is set (-1, g->err says
// so, g->interrupted), so that the caller can let the target run before it leaves.
void gdbr_cancel_on(const volatile int *flag);
// Bounds every exchange from now on by ms of the host's monotonic clock in all (0: no
// deadline, each byte still waited for at most 10 s): a server that talks without answering
// in time is given up (-1, g->err saying what it sent). kevprobe sets one a round.
void gdbr_deadline(struct gdbr *g, unsigned ms);
// Detaches (the target runs on) unless it ended, and frees what gdbr_connect took.
void gdbr_close(struct gdbr *g);
// Stops a running target (^C) and waits for its stop reply; 0, or -1 (g->exited if it ended).
// From the ^C on the target counts as halted (g->running false): a wait cut short still
// leaves gdbr_cont to send the `c` that lets it run.
int gdbr_halt(struct gdbr *g);
// Lets the target run on (`c`); the reply comes when it stops (gdbr_halt collects it).
int gdbr_cont(struct gdbr *g);
// Memory of the halted target, in pieces the server takes. 0, or -1 with g->err.
int gdbr_read(struct gdbr *g, uint64_t addr, void *buf, size_t n);
int gdbr_write(struct gdbr *g, uint64_t addr, const void *buf, size_t n);
// The target's memory through g (gdbr_read, gdbr_write, g->err), for the readers that take a
// struct kev_mem.
struct kev_mem gdbr_mem(struct gdbr *g);

#endif
