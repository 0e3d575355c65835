-- SPDX-License-Identifier: MIT
-- kevsql's standard library (docs/sql.md, "The standard library"): views over the tables that
-- answer the questions an embedded developer asks of a capture. kev_open makes them (temp
-- views, beside the temp tables); each one's first line says what a row is. Times in ns since
-- boot, durations in ns. The findings views (priority inversions, deadlocks) are the same
-- findings as kevstat -s waits: they sum the same records of the analysis model.

-- Each thread with its name as every tool prints it and its process: a row per thread.
CREATE TEMP VIEW thread_label AS -- kevsql stdlib
SELECT t.utid, t.tid, t.upid, t.label, t.name, p.name AS process, t.is_idle
FROM thread t LEFT JOIN process p USING (upid);

-- Per-thread CPU time and runs, share of the trace's span: a row per thread that ran, and one
-- per CPU for its idle thread (utid 0 is every CPU's: cpu says which, the label too).
CREATE TEMP VIEW thread_cpu AS -- kevsql stdlib
SELECT s.utid, CASE WHEN s.utid = 0 THEN 'idle (CPU ' || s.cpu || ')' ELSE l.label END AS label,
       CASE WHEN s.utid = 0 THEN s.cpu END AS cpu, count(*) AS runs, sum(s.dur) AS cpu_ns,
       round(100.0 * sum(s.dur) / ((SELECT int_value FROM metadata WHERE name = 'trace_end_ns') -
                                  (SELECT int_value FROM metadata WHERE name = 'trace_start_ns')), 3) AS share_pct
FROM sched_slice s JOIN thread_label l USING (utid)
GROUP BY s.utid, CASE WHEN s.utid = 0 THEN s.cpu END ORDER BY cpu_ns DESC;

-- Per-thread time in each state: a row per (thread, state).
CREATE TEMP VIEW thread_states AS -- kevsql stdlib
SELECT s.utid, l.label, s.kernel_state AS state, count(*) AS intervals, sum(s.dur) AS ns
FROM thread_state s JOIN thread_label l USING (utid)
GROUP BY s.utid, s.kernel_state ORDER BY s.utid, ns DESC;

-- Per-process CPU time: a row per process.
CREATE TEMP VIEW process_cpu AS -- kevsql stdlib
SELECT l.upid, l.process, sum(s.dur) AS cpu_ns
FROM sched_slice s JOIN thread_label l USING (utid)
GROUP BY l.upid ORDER BY cpu_ns DESC;

-- Each CPU's time running threads, its idle thread, and no thread known, and its load (the
-- running share of the span): a row per CPU.
CREATE TEMP VIEW cpu_usage AS -- kevsql stdlib
SELECT cpu, running_ns, idle_ns, none_ns, running_ns + idle_ns + none_ns AS span_ns,
       round(100.0 * running_ns / max(running_ns + idle_ns + none_ns, 1), 3) AS load_pct
FROM cpu;

-- CPU load per CPU over time, 1 ms buckets from boot (cpu_load(NS) for another width): a row
-- per CPU and bucket with busy time; a bucket without any is left out (its load is 0).
CREATE TEMP VIEW cpu_load_1ms AS -- kevsql stdlib
SELECT * FROM cpu_load WHERE width = 1000000;

-- Interrupt-to-thread latency per interrupt line (kevstat -s irq's): every interrupt that had
-- a thread, to the moment the thread had it (min, mean, 99th percentile, max), the interrupts
-- that woke no thread or were not handled by the end, and the rate over the time the line was
-- active. A row per line.
CREATE TEMP VIEW irq_latency AS -- kevsql stdlib
WITH r AS (
    SELECT irq, name, ts, utid, latency,
           row_number() OVER (PARTITION BY irq ORDER BY latency IS NULL, latency) AS k,
           count(latency) OVER (PARTITION BY irq) AS n
    FROM irq)
SELECT irq, name, count(*) AS interrupts, count(latency) AS measured,
       sum(utid IS NULL) AS no_thread, sum(utid IS NOT NULL AND latency IS NULL) AS unhandled,
       min(latency) AS min_ns, avg(latency) AS avg_ns, max(latency) AS max_ns,
       max(CASE WHEN k = max(1, (n * 99 + 99) / 100) THEN latency END) AS p99_ns,
       CASE WHEN count(*) > 1 THEN (count(*) - 1) * 1e9 / (max(ts) - min(ts)) END AS rate_per_s
FROM r GROUP BY irq ORDER BY irq;

-- A task's instances (the table instance, kevstat -s tasks's rule): each release at the
-- thread's activation point (release_ts), its first run (start_ts), its end (NULL: open at the
-- end of the trace), and the time from its previous release (period). A row per instance.
CREATE TEMP VIEW thread_activation AS -- kevsql stdlib
SELECT utid, ts AS release_ts, start_ts, end_ts,
       ts - lag(ts) OVER (PARTITION BY utid ORDER BY ts) AS period
FROM instance;

-- A task's period and jitter: a row per task with at least 3 instances that ran (periods from
-- one instance's start to the next, what the thread itself measures after each wait).
CREATE TEMP VIEW period_jitter AS -- kevsql stdlib
WITH a AS (
    SELECT utid, start_ts - lag(start_ts) OVER (PARTITION BY utid ORDER BY start_ts) AS p
    FROM instance WHERE start_ts IS NOT NULL)
SELECT a.utid, l.label, count(p) AS periods, min(p) AS min_ns, avg(p) AS avg_ns, max(p) AS max_ns,
       max(p) - min(p) AS jitter_ns
FROM a JOIN thread_label l USING (utid)
WHERE p IS NOT NULL GROUP BY a.utid HAVING count(p) >= 2 ORDER BY periods DESC;

-- Deadline misses (kevstat -s tasks's): an instance that ended after its deadline (its task's
-- given deadline, else its period: a periodic task's timer's interval; an event-driven task has
-- none unless given), or was still open at the end of the trace after it. A row
-- per miss; emulator_miss 1 when the emulator's time in it covers its lateness.
CREATE TEMP VIEW deadline_miss AS -- kevsql stdlib
SELECT i.id, i.utid, l.label, i.ts AS release_ts, i.end_ts, i.dur AS response_ns,
       i.period AS period_ns, i.deadline AS deadline_ns, i.lateness AS lateness_ns,
       i.emulator_dur AS emulator_ns, i.emulator_miss
FROM instance i JOIN thread_label l USING (utid)
WHERE i.missed = 1 ORDER BY i.ts;

-- Each task's timing (kevstat -s tasks's line): its kind (periodic: a timer's pulses release
-- it; event-driven), instances, period and where it comes from (timer, relayed timer, given),
-- deadline, response times of its jobs (an instance its thread's death ended is its exit
-- path, no job: exit_path), the program's misses and the emulator's, the largest lateness but
-- the emulator's misses', the periods whose pulse the kernel dropped. A row per task.
CREATE TEMP VIEW task_timing AS -- kevsql stdlib
SELECT i.utid, l.label, k.kind, k.period_from, count(*) AS instances,
       count(CASE WHEN i.exit_path = 0 THEN i.end_ts END) AS ended, k.exits,
       max(i.period) AS period_ns, max(i.deadline) AS deadline_ns,
       min(CASE WHEN i.exit_path = 0 THEN nullif(i.dur, -1) END) AS min_response_ns,
       avg(CASE WHEN i.exit_path = 0 THEN nullif(i.dur, -1) END) AS avg_response_ns,
       max(CASE WHEN i.exit_path = 0 THEN nullif(i.dur, -1) END) AS max_response_ns,
       max(CASE WHEN i.exit_path = 0 THEN i.exec_dur END) AS max_exec_ns,
       sum(i.missed) - sum(i.emulator_miss) AS misses,
       sum(i.emulator_miss) AS emulator_misses,
       max(CASE WHEN i.emulator_miss = 0 THEN i.lateness END) AS max_lateness_ns,
       sum(i.preemptions) AS preemptions, k.missed_periods
FROM instance i JOIN thread_label l USING (utid) JOIN task k USING (utid)
GROUP BY i.utid ORDER BY misses DESC, i.utid;

-- Priority inversions (kevstat -s waits'): a thread blocked on an object whose lower-priority
-- owner was preempted by threads of a priority between the two. A row per (waiter, object,
-- owner) with the time lost, as kevstat's INVERSION lines: the model's findings (inversion).
CREATE TEMP VIEW priority_inversion AS -- kevsql stdlib
SELECT i.waiter_utid, lw.label AS waiter, i.object, i.owner_utid, lo.label AS owner,
       i.waits, i.lost AS lost_ns, i.max_lost AS max_ns, i.ts AS first_ts
FROM inversion i JOIN thread_label lw ON lw.utid = i.waiter_utid
     JOIN thread_label lo ON lo.utid = i.owner_utid
GROUP BY i.inversion ORDER BY first_ts;

-- Every middle thread of each inversion with its own share of the time lost (they add up to
-- priority_inversion.lost_ns): a row per (waiter, object, owner, middle thread).
CREATE TEMP VIEW priority_inversion_middle AS -- kevsql stdlib
SELECT i.waiter_utid, lw.label AS waiter, i.object, i.owner_utid, lo.label AS owner,
       i.middle_utid, coalesce(lm.label, '(other threads)') AS middle, i.middle_lost AS lost_ns
FROM inversion i JOIN thread_label lw ON lw.utid = i.waiter_utid
     JOIN thread_label lo ON lo.utid = i.owner_utid LEFT JOIN thread_label lm ON lm.utid = i.middle_utid
WHERE i.middle_lost > 0 ORDER BY lost_ns DESC;

-- Deadlock cycles (kevstat -s waits'): a row per cycle, its threads in order as kevstat
-- prints them ("b waits on mutex 1 held by a, which waits on mutex 2 held by b"), when it
-- closed, when a wait of it ended (NULL: still blocked at the end).
CREATE TEMP VIEW deadlock_cycle AS -- kevsql stdlib
WITH RECURSIVE d AS (
    SELECT d.cycle, d.position, d.ts, d.broken_ts, d.object, l.label, o.label AS owner
    FROM deadlock d JOIN thread_label l ON l.utid = d.utid JOIN thread_label o ON o.utid = d.owner_utid),
c(cycle, pos, n, text) AS (
    SELECT cycle, 0, 1, label || ' waits on ' || object || ' held by ' || owner FROM d WHERE position = 0
    UNION ALL
    SELECT c.cycle, c.pos + 1, c.n + 1, c.text || ', which waits on ' || d.object || ' held by ' || d.owner
    FROM c JOIN d ON d.cycle = c.cycle AND d.position = c.pos + 1)
SELECT c.cycle, d.ts, d.broken_ts, c.n AS threads, c.text AS cycle_text
FROM c JOIN d ON d.cycle = c.cycle AND d.position = 0
WHERE c.n = (SELECT count(*) FROM deadlock x WHERE x.cycle = c.cycle)
ORDER BY c.cycle;

-- Lock contention by object and owner: a row per (object, owner) with the waits on it while
-- that thread held it.
CREATE TEMP VIEW lock_contention AS -- kevsql stdlib
SELECT w.object, w.owner_utid, lo.label AS owner, count(*) AS waits,
       count(DISTINCT w.utid) AS waiters, sum(w.dur) AS wait_ns, max(w.dur) AS max_wait_ns,
       sum(w.owner_preempted) AS owner_preempted_ns
FROM wait w LEFT JOIN thread_label lo ON lo.utid = w.owner_utid
GROUP BY w.object, w.owner_utid ORDER BY wait_ns DESC;

-- Message latency per channel (kevstat -s msg's: client thread to server process): count,
-- errors, send-to-reply (pulses: send-to-receive) and queueing. A row per channel.
CREATE TEMP VIEW msg_latency AS -- kevsql stdlib
SELECT coalesce(lc.label, 'irq ' || m.irq) AS client, m.client_utid, m.irq, m.server_pid,
       p.name AS server, m.pulse, count(*) AS messages, sum(m.error != 0) AS errors,
       min(m.dur) AS min_ns, avg(m.dur) AS avg_ns, max(m.dur) AS max_ns,
       avg(m.queue) AS avg_queue_ns, max(m.queue) AS max_queue_ns
FROM msg m LEFT JOIN thread_label lc ON lc.utid = m.client_utid
     LEFT JOIN process p ON p.upid = m.server_pid
GROUP BY m.client_utid, m.irq, m.server_pid, m.pulse ORDER BY messages DESC;

-- User-event intervals: from each user event to the next one of the same code in the same
-- process. A row per interval.
CREATE TEMP VIEW user_event_interval AS -- kevsql stdlib
SELECT upid, code, name, ts, lead(ts) OVER (PARTITION BY upid, code ORDER BY ts) - ts AS dur,
       value
FROM user_event;

-- Their statistics: a row per (process, code).
CREATE TEMP VIEW user_event_stats AS -- kevsql stdlib
SELECT upid, code, name, count(*) + 1 AS events, min(dur) AS min_ns, avg(dur) AS avg_ns,
       max(dur) AS max_ns
FROM user_event_interval WHERE dur IS NOT NULL GROUP BY upid, code ORDER BY upid, code;

-- Perfetto's names for what the tables hold (its trace processor's tables and views, with the
-- columns kevsql can fill):
-- trace_bounds: the first and last event's time.
CREATE TEMP VIEW trace_bounds AS -- kevsql stdlib
SELECT trace_start() AS start_ts, trace_end() AS end_ts;

-- thread_track, cpu_track, counter_track, process_track: the tracks by what owns them.
CREATE TEMP VIEW thread_track AS -- kevsql stdlib
SELECT id, name, type, utid FROM track WHERE utid IS NOT NULL;
CREATE TEMP VIEW cpu_track AS -- kevsql stdlib
SELECT id, name, type, cpu FROM track WHERE cpu IS NOT NULL;
CREATE TEMP VIEW counter_track AS -- kevsql stdlib
SELECT id, name, type, cpu, upid FROM track WHERE type IN ('cpu_busy', 'user_counter');
CREATE TEMP VIEW process_track AS -- kevsql stdlib
SELECT id, name, type, upid FROM track WHERE upid IS NOT NULL;

-- thread_slice: the slices on a thread's track, with its thread and process.
CREATE TEMP VIEW thread_slice AS -- kevsql stdlib
SELECT s.*, t.upid FROM slice s JOIN thread t USING (utid);

-- process_slice: the slices with their process (a thread's slice is its process's).
CREATE TEMP VIEW process_slice AS -- kevsql stdlib
SELECT s.*, t.upid FROM slice s JOIN thread t USING (utid) WHERE t.upid IS NOT NULL;

-- stats: what the trace lost or could not read (Perfetto's columns; kevsql's names).
CREATE TEMP VIEW stats AS -- kevsql stdlib
SELECT 'kev_lost_events' AS name, NULL AS idx, 'data_loss' AS severity, 'trace' AS source,
       (SELECT int_value FROM metadata WHERE name = 'lost_events') AS value,
       'events the kernel could not record (lost-event windows: the lost table)' AS description
UNION ALL
SELECT 'kev_damaged', NULL, 'error', 'trace',
       (SELECT int_value FROM metadata WHERE name = 'damaged'),
       'the file is damaged: the tables end at the damage (kev_damage() says where)';
