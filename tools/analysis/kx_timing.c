// SPDX-License-Identifier: MIT
// The --deadline and --period options of the tools that show task instances (kx_task.h): their
// one option table and their one parser, so that kevstat, kevreport and kevsql take and check
// them alike.
#include <stdio.h>
#include <string.h>

#include <kevhost/kx_task.h>
#include <kevhost/tool_opts.h>

const struct tool_opt kx_timing_opts[] = {
    { KX_TIMING_OPT_DEADLINE, 0, "deadline", "TASK=TIME",
      "the deadline of a task's instances (imu=2ms, store/srv=500us;\n"
      "default: a periodic task's period, its timer's interval; an\n"
      "event-driven task, released by interrupts, messages or sleeps,\n"
      "has none unless given); TASK: process/thread, or a main\n"
      "thread's program; again for another task", NULL },
    { KX_TIMING_OPT_PERIOD, 0, "period", "TASK=TIME",
      "a task's period, its deadline unless one is given (default: a\n"
      "periodic task's timer's interval; an event-driven task none)", NULL },
    { 0 },
};

int kx_timing_parse(const char *tool, const char *opt, const char *arg, struct kx_timing *r)
{
    const char *eq = strrchr(arg, '=');
    uint64_t ns;
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(r->name) || kx_time_arg(eq + 1, &ns) ||
        !ns) {
        fprintf(stderr, "%s: --%s %s: give a task and a time, such as imu=2ms or "
                "store/srv=500us\n", tool, opt, arg);
        return -1;
    }
    memset(r, 0, sizeof(*r));
    memcpy(r->name, arg, (size_t)(eq - arg));
    r->ns = ns;
    r->deadline = !strcmp(opt, "deadline");
    return 0;
}

int kx_timing_take(struct kx_timing_set *set, const char *tool, int id, const char *val)
{
    if (id != KX_TIMING_OPT_DEADLINE && id != KX_TIMING_OPT_PERIOD)
        return 0;
    const char *opt = id == KX_TIMING_OPT_DEADLINE ? "deadline" : "period";
    if (set->n == KX_MAX_TIMING) {
        fprintf(stderr, "%s: --%s %s: at most %u periods and deadlines\n", tool, opt, val,
                KX_MAX_TIMING);
        return -1;
    }
    return kx_timing_parse(tool, opt, val, &set->rule[set->n]) ? -1 : (set->n++, 1);
}
