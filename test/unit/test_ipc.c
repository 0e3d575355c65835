// SPDX-License-Identifier: MIT
// Message-passing state transitions: SEND -> REPLY -> READY, RECEIVE, priority inherited on
// receive and given back on reply, MsgError, pulses by priority, stale rcvids, channels and
// processes that go away under blocked clients, pointer checks.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "kstub.h"
#include <kernel/ipc.h>
#include <kernel/sched.h>

static uint8_t ram_c[4096] __attribute__((aligned(4096)));
static uint8_t ram_s[4096] __attribute__((aligned(4096)));
static struct proc *pc, *ps;
static struct thread *client, *server;
static int chid, coid;

static int setup(void **state)
{
    (void)state;
    kstub_reset();
    memset(ram_c, 0, sizeof(ram_c));
    memset(ram_s, 0, sizeof(ram_s));
    kstub_thread(NULL, 0);                      // idle
    pc = kstub_proc(1, ram_c, sizeof(ram_c), 0);
    ps = kstub_proc(2, ram_s, sizeof(ram_s), 0);
    client = kstub_thread(pc, 60);
    server = kstub_thread(ps, 10);
    chid = ipc_channel_create(ps, 0);
    assert_true(chid > 0);
    coid = ipc_connect_attach(pc, 2, chid);
    assert_true(coid > 0);
    return 0;
}

#define C(off) kstub_addr(ram_c + (off))
#define S(off) kstub_addr(ram_s + (off))

static void test_send_before_receive(void **state)
{
    (void)state;
    strcpy((char *)ram_c, "hello");
    kstub_run(client);
    assert_int_equal(ipc_send(client, coid, C(0), 6, C(100), 16), 0);
    assert_int_equal(client->state, THS_SEND);

    kstub_run(server);
    int rcvid = ipc_receive(server, chid, S(0), 64, S(512));
    assert_true(rcvid > 0);
    assert_string_equal((char *)ram_s, "hello");
    assert_int_equal(client->state, THS_REPLY);
    const struct kmsg_info *info = (const struct kmsg_info *)(ram_s + 512);
    assert_int_equal(info->pid, 1);
    assert_int_equal(info->msglen, 6);
    assert_int_equal(info->dstmsglen, 16);
    assert_int_equal(server->prio, 60);         // inherited from the client

    strcpy((char *)ram_s + 64, "world, and more than fits");
    assert_int_equal(ipc_reply(server, rcvid, 5, S(64), 27), 0);
    assert_int_equal(client->state, THS_READY);
    assert_int_equal(kstub_result(client), 5);
    assert_memory_equal(ram_c + 100, "world, and more ", 16);
    assert_int_equal(ram_c[116], 0);            // truncated to the reply buffer
    assert_int_equal(server->prio, 10);         // given back on reply
    // The rcvid is spent.
    assert_int_equal(ipc_reply(server, rcvid, 0, 0, 0), -ESRCH);
}

static void test_receive_before_send(void **state)
{
    (void)state;
    kstub_run(server);
    assert_int_equal(ipc_receive(server, chid, S(0), 64, 0), 0);
    assert_int_equal(server->state, THS_RECEIVE);
    kstub_run(client);
    ipc_send(client, coid, C(0), 4, 0, 0);
    assert_int_equal(client->state, THS_REPLY);
    assert_int_equal(server->state, THS_READY);
    int rcvid = kstub_result(server);
    assert_true(rcvid > 0);
    assert_int_equal(server->prio, 60);
    kstub_run(server);
    assert_int_equal(ipc_error(server, rcvid, 42), 0);
    assert_int_equal(kstub_result(client), -42);
    assert_int_equal(ipc_error(server, rcvid, 42), -ESRCH);
}

static void test_pulses_by_priority(void **state)
{
    (void)state;
    assert_int_equal(ipc_send_pulse(pc, coid, 5, 1, 11), 0);
    assert_int_equal(ipc_send_pulse(pc, coid, 50, 2, 22), 0);
    assert_int_equal(ipc_send_pulse(pc, coid, 5, 3, 33), 0);
    kstub_run(server);
    const struct kpulse *p = (const struct kpulse *)ram_s;
    int order[3];
    for (int i = 0; i < 3; i++) {
        assert_int_equal(ipc_receive(server, chid, S(0), 64, 0), 0);
        order[i] = p->code;
    }
    assert_int_equal(order[0], 2);
    assert_int_equal(order[1], 1);      // FIFO among equal priorities
    assert_int_equal(order[2], 3);
    assert_int_equal(server->prio, 5);  // runs at the last pulse's priority
    assert_int_equal(ipc_send_pulse(pc, coid, 0, 1, 1), -EINVAL);
    assert_int_equal(ipc_send_pulse(pc, coid, 5, -1, 1), -EINVAL);
    assert_int_equal(ipc_send_pulse(pc, 99, 5, 1, 1), -EBADF);
}

static void test_pulse_pool_exhaustion(void **state)
{
    (void)state;
    // One process queues at most KMAX_PULSES_PER_PROC: the pool is never
    // one process's to empty.
    int sent = 0;
    while (ipc_send_pulse(pc, coid, 5, 1, 1) == 0)
        sent++;
    assert_int_equal(sent, KMAX_PULSES_PER_PROC);
    assert_int_equal(ipc_send_pulse(pc, coid, 5, 1, 1), -EAGAIN);
}

static void test_bad_pointers_and_ids(void **state)
{
    (void)state;
    kstub_run(client);
    assert_int_equal(ipc_send(client, coid, S(0), 4, 0, 0), -EFAULT);     // other's memory
    assert_int_equal(ipc_send(client, coid, C(4090), 16, 0, 0), -EFAULT); // runs off the end
    assert_int_equal(ipc_send(client, coid, C(0), 4, C(0), 0xfffffff0u), -EFAULT);
    assert_int_equal(ipc_send(client, 99, C(0), 4, 0, 0), -EBADF);
    assert_int_equal(client->state, THS_RUNNING);
    kstub_run(server);
    // A buffer smaller than a pulse is taken (a message is cut to it); a pulse cannot be,
    // so it is consumed and that receive fails with EFAULT, as QNX's MsgReceive says.
    assert_int_equal(ipc_send_pulse(pc, coid, 5, 1, 1), 0);
    assert_int_equal(ipc_receive(server, chid, S(0), 8, 0), -EFAULT);
    assert_int_equal(ipc_receive(server, chid, C(0), 64, 0), -EFAULT);
    assert_int_equal(ipc_receive(server, 99, S(0), 64, 0), -ESRCH);
    // Only the owner receives on a channel.
    kstub_run(client);
    assert_int_equal(ipc_receive(client, chid, C(0), 64, 0), -ESRCH);
}

static void test_server_process_gone(void **state)
{
    (void)state;
    kstub_run(client);
    ipc_send(client, coid, C(0), 4, 0, 0);
    kstub_run(server);
    int rcvid = ipc_receive(server, chid, S(0), 64, 0);
    assert_true(rcvid > 0);
    struct thread *c2 = kstub_thread(pc, 61);
    kstub_run(c2);
    ipc_send(c2, coid, C(8), 4, 0, 0);
    assert_int_equal(c2->state, THS_SEND);
    // The server process dies: the REPLY-blocked and SEND-blocked clients both fail.
    ipc_proc_gone(ps);
    assert_int_equal(client->state, THS_READY);
    assert_int_equal(kstub_result(client), -ESRCH);
    assert_int_equal(c2->state, THS_READY);
    assert_int_equal(kstub_result(c2), -ESRCH);
    kstub_run(client);
    assert_int_equal(ipc_send(client, coid, C(0), 4, 0, 0), -ESRCH);
}

static void test_stale_rcvid_after_client_dies(void **state)
{
    (void)state;
    kstub_run(client);
    ipc_send(client, coid, C(0), 4, 0, 0);
    kstub_run(server);
    int rcvid = ipc_receive(server, chid, S(0), 64, 0);
    thread_destroy(client, 0);
    struct thread *again = kstub_thread(pc, 60);    // may reuse the pool slot
    (void)again;
    assert_int_equal(ipc_reply(server, rcvid, 0, 0, 0), -ESRCH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_send_before_receive, setup),
        cmocka_unit_test_setup(test_receive_before_send, setup),
        cmocka_unit_test_setup(test_pulses_by_priority, setup),
        cmocka_unit_test_setup(test_pulse_pool_exhaustion, setup),
        cmocka_unit_test_setup(test_bad_pointers_and_ids, setup),
        cmocka_unit_test_setup(test_server_process_gone, setup),
        cmocka_unit_test_setup(test_stale_rcvid_after_client_dies, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
