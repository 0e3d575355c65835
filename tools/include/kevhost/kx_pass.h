// SPDX-License-Identifier: MIT
// One pass of a capture through the analysis model, for every converter: the capture is read
// once, each event goes to the converter's callback with the model's state before it (the
// thread a switch leaves, the thread an interrupt came in), then into the model, then (when the
// converter asks) to its callback again with the state after it. A converter maps events; it
// never updates the model itself. The statistics (kx_stats.h) are a model too: kx_stats_model.
// A reader that pulls (kevsql's cursors) or a live one takes the same steps an event at a time
// (kx_pass_step).
#ifndef TOOLS_KX_PASS_H
#define TOOLS_KX_PASS_H

#include <kevhost/kx.h>

struct kx_pass {
    struct kx_model *m;  // the model the callbacks see (NULL: none, a reader that needs none)
    // how an event reaches the model: NULL, kx_model_update(m, e); else feed(model, e)
    // (kx_stats_model: the statistics, which update their own model m)
    void (*feed)(void *model, const struct kev_event *e);
    void *model;
    // e with the model's state before it; non-zero stops the pass (e still reaches the model)
    int (*on_event)(void *user, const struct kev_reader *r, const struct kev_event *e,
                    struct kx_model *m);
    // optional: e again, once the model took it
    void (*after)(void *user, const struct kev_reader *r, const struct kev_event *e,
                  struct kx_model *m);
    void *user;
    int file_order;      // events in the file's order (per CPU), not merged in time order
};

// One event through p: on_event, the model, after; on_event's result.
int kx_pass_step(const struct kx_pass *p, const struct kev_reader *r, const struct kev_event *e);
// Every event of f through p, in time order across CPUs (kx_decode_sorted) unless p->file_order
// (kx_decode); on a decoding error the message is printed and 1 returned (the events before it
// went through), 1 when on_event stopped the pass, else 0.
int kx_pass_run(const char *tool, struct kx_file *f, const struct kx_pass *p);

#endif
