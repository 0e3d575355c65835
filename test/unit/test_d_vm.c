// SPDX-License-Identifier: MIT
// Unit tests of the VM and engine: run-time faults abort the clause with the right fault,
// action and DIF offset, and fire ERROR; buffers drop and count; aggregations and dynamic
// variables hold what the script put there; random verified bytecode never crashes.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <d/dcc.h>
#include <d/dif.h>
#include <d/dprobes.h>
#include <d/dstacks.h>
#include <d/dvm.h>
#include <d/ddevinfo_table.h>
#include "../../trace/d/dvm_impl.h"   /* the per-CPU work area (test_scrub_after_firing) */

static uint8_t arena[2 << 20] __attribute__((aligned(8)));
static uint64_t blob[1 << 14];
static size_t bloblen;
static uint8_t mem[4 << 20] __attribute__((aligned(8)));
static struct dvm_state st;

static void compile(const char *src)
{
    struct dcc_in in = { src, strlen(src), 0, 1, NULL, 0 };
    struct dcc_out out;
    if (dcc_compile(&in, arena, sizeof(arena), &out) != 0)
        fail_msg("compile failed: %s", out.err);
    memcpy(blob, out.obj, out.objlen);
    bloblen = out.objlen;
}

static struct dif_hdr *hdr(void) { return (struct dif_hdr *)blob; }
static struct dif_act *act(unsigned k) { return (struct dif_act *)((uint8_t *)blob + hdr()->dh_acts) + k; }
static uint32_t *prog(unsigned k) { return (uint32_t *)((uint8_t *)blob + hdr()->dh_insns) + act(k)->da_prog.dp_start; }

static void load(unsigned policy, uint64_t bufsize)
{
    struct dvm_opts o = { bufsize, 64 << 10, 64 << 10, policy, 1, 1, 2, 256, 0 };
    char err[256];
    if (dvm_load(&st, blob, bloblen, &o, mem, sizeof(mem), err, sizeof(err)) != 0)
        fail_msg("load failed: %s", err);
}

static struct dvm_ctx ctx = { 0, 100, 7, 1, 0, 1000, 0, 0, "test", 0, 1 };

static void fire(uint32_t id, uint64_t a0)
{
    uint64_t args[DVM_NARGS] = { a0, 0 };
    dvm_fire(&st, &ctx, id, args);
}

/* records: what dvm_buf_read handed back. */
struct recs {
    unsigned n, nerr;
    struct dvm_errrec err[8];
    uint32_t epid[64];
    int64_t first[64]; /* first 8 bytes of data */
};

static void rec_cb(void *arg, const struct dvm_rechdr *h)
{
    struct recs *r = arg;
    if (h->rh_epid == DVM_EPID_ERROR) {
        if (r->nerr < 8)
            memcpy(&r->err[r->nerr++], h + 1, sizeof(struct dvm_errrec));
        return;
    }
    if (r->n < 64) {
        r->epid[r->n] = h->rh_epid;
        r->first[r->n] = 0;
        if (h->rh_size >= sizeof(*h) + 8)
            memcpy(&r->first[r->n], h + 1, 8);
        r->n++;
    }
}

static struct recs read_all(void)
{
    struct recs r;
    memset(&r, 0, sizeof(r));
    dvm_buf_read(&st, 0, 1, rec_cb, &r);
    return r;
}

static uint32_t find_op(unsigned action, unsigned op)
{
    for (uint32_t pc = 0; pc < act(action)->da_prog.dp_len; pc++)
        if (DIF_OP(prog(action)[pc]) == op)
            return pc;
    fail_msg("no %s in action %u", dif_opname(op), action);
    return 0;
}

static void test_divzero(void **state)
{
    (void)state;
    compile("BEGIN { x = 0; y = 10 / x; trace(1); } BEGIN { trace(2); }");
    uint32_t pc = find_op(1, DIF_SDIV);
    load(DVM_BUF_SWITCH, 4096);
    fire(DPROBE_BEGIN, 0);
    struct recs r = read_all();
    assert_int_equal(r.nerr, 1);
    assert_int_equal(r.err[0].er_fault, DVM_F_DIVZERO);
    assert_int_equal(r.err[0].er_epid, 1);
    assert_int_equal(r.err[0].er_action, 2);
    assert_int_equal(r.err[0].er_offset, pc * 4);
    /* the faulting clause recorded nothing; the next clause ran */
    assert_int_equal(r.n, 1);
    assert_int_equal(r.epid[0], 2);
    assert_int_equal(r.first[0], 2);
    assert_string_equal(dvm_fault_name(DVM_F_DIVZERO), "divide-by-zero");
}

static void test_bad_address(void **state)
{
    (void)state;
    compile("BEGIN { x = 1; }");
    /* setx %r1, 1; ldx %r2, [%r1]; ... ret */
    assert_int_equal(DIF_OP(prog(0)[0]), DIF_SETX);
    prog(0)[1] = DIF_INSTR(DIF_LDUB, 1, 0, 2);
    load(DVM_BUF_SWITCH, 4096);
    fire(DPROBE_BEGIN, 0);
    struct recs r = read_all();
    assert_int_equal(r.nerr, 1);
    assert_int_equal(r.err[0].er_fault, DVM_F_BADADDR);
    assert_int_equal(r.err[0].er_addr, 1);
    assert_int_equal(r.err[0].er_action, 1);
    assert_int_equal(r.err[0].er_offset, 4);
}

/* A fault that has no address (copyin( ) of more than scratch holds) reports address 0, not
 * the address of an earlier fault (the ERROR record must not carry a stale one). */
static void test_fault_addr_not_stale(void **state)
{
    (void)state;
    compile("BEGIN { this->p = copyin(16, 4); } BEGIN { this->q = copyin(32, 100000); }");
    load(DVM_BUF_SWITCH, 4096);
    fire(DPROBE_BEGIN, 0);
    struct recs r = read_all();
    assert_int_equal(r.nerr, 2);
    assert_int_equal(r.err[0].er_fault, DVM_F_BADADDR);
    assert_int_equal(r.err[0].er_addr, 16);
    assert_int_equal(r.err[1].er_fault, DVM_F_NOSCRATCH);
    assert_int_equal(r.err[1].er_addr, 0);
}

/* The kernel's privilege rule (docs/hostile.md, "What a consumer may do"): copyin's reader
 * refusing the process (DVM_UREAD_PRIV) and the stack hook refusing it are each an ERROR with
 * the privilege fault, DTrace's DTRACEFLT_UPRIV (7) as ERROR's arg4, named "privilege"; a
 * plain bad address stays "invalid address". */
static int uread_refused(void *dst, uint64_t addr, unsigned n)
{
    (void)dst, (void)n;
    return addr == 64 ? -1 : DVM_UREAD_PRIV;
}
static int user_not_ok(void) { return 0; }

static void test_user_read_privilege(void **state)
{
    (void)state;
    compile("BEGIN { this->p = copyin(16, 4); } BEGIN { this->s = copyinstr(32); }"
            "BEGIN { this->q = copyin(64, 4); } BEGIN { @[ustack()] = count(); }"
            "BEGIN { this->u = ucaller; } ERROR { trace(arg4); }");
    load(DVM_BUF_SWITCH, 4096);
    dvm_uread_fn saved = dvm_uread;
    dvm_uread = uread_refused;
    dvm_user_ok = user_not_ok;
    fire(DPROBE_BEGIN, 0);
    dvm_uread = saved;
    dvm_user_ok = NULL;
    struct recs r = read_all();
    assert_int_equal(r.nerr, 5);
    assert_int_equal(r.err[0].er_fault, DVM_F_UPRIV);
    assert_int_equal(r.err[1].er_fault, DVM_F_UPRIV);
    assert_int_equal(r.err[2].er_fault, DVM_F_BADADDR);
    assert_int_equal(r.err[3].er_fault, DVM_F_UPRIV);
    assert_int_equal(r.err[4].er_fault, DVM_F_UPRIV);
    assert_non_null(strstr(dvm_fault_name(DVM_F_UPRIV), "privilege"));
    assert_int_equal(r.n, 5);   /* ERROR's trace(arg4): 7, 7, 1, 7, 7 */
    assert_int_equal(r.first[0], 7);
    assert_int_equal(r.first[2], 1);
    assert_int_equal(r.first[4], 7);
}

/* D's `name (DIF_S_KVAR): the host's reader refusing the consumer is the kernel-privilege
 * fault, DTRACEFLT_KPRIV (6) as ERROR's arg4; with no reader (a capture's replay) an invalid
 * address; read, the variable's bytes zero-extended. */
static int kvar_of(const char *mod, const char *name, uint64_t *addr, uint64_t *size)
{
    (void)mod;
    *addr = 0x1000;
    *size = !strcmp(name, "k_ncpus") ? 4 : 2;
    return !strcmp(name, "k_ncpus") || !strcmp(name, "small") ? 0 : -1;
}
static int kread_refused(void *dst, uint64_t addr, unsigned n)
{
    (void)dst, (void)addr, (void)n;
    return DVM_UREAD_PRIV;
}
static int kread_ok(void *dst, uint64_t addr, unsigned n)
{
    static const uint8_t mem[4] = { 0xfe, 0xff, 0xff, 0x7f };
    if (addr != 0x1000 || n > 4)
        return -1;
    memcpy(dst, mem, n);
    return 0;
}

static void test_kernel_variable(void **state)
{
    (void)state;
    dcc_kvar = kvar_of;
    compile("BEGIN { trace(`ncpus); } BEGIN { trace(`small); } ERROR { trace(arg4); }");
    dcc_kvar = NULL;
    load(DVM_BUF_SWITCH, 4096);
    dvm_kread = kread_refused;
    fire(DPROBE_BEGIN, 0);
    dvm_kread = NULL;
    fire(DPROBE_BEGIN, 0);
    dvm_kread = kread_ok;
    fire(DPROBE_BEGIN, 0);
    dvm_kread = NULL;
    struct recs r = read_all();
    assert_int_equal(r.nerr, 4);
    assert_int_equal(r.err[0].er_fault, DVM_F_KPRIV);
    assert_int_equal(r.err[1].er_fault, DVM_F_KPRIV);
    assert_int_equal(r.err[2].er_fault, DVM_F_BADADDR);
    assert_non_null(strstr(dvm_fault_name(DVM_F_KPRIV), "privilege"));
    assert_int_equal(r.n, 6);   /* 6, 6, 1, 1 from ERROR; then the two values */
    assert_int_equal(r.first[0], 6);
    assert_int_equal(r.first[2], 1);
    assert_int_equal(r.first[4], 0x7ffffffe);
    assert_int_equal(r.first[5], 0xfffe);
}

/* the host's interrupt devices for test_interrupt_devices: a board's table of two lines */
static const struct ddev test_devs[] = { { 8, 1, 0, "timer" }, { 3, 0, 1, "uart" } };

int dvm_devinfo(unsigned member, uint64_t line, int64_t *out)
{
    return ddev_member(test_devs, 2, member, line, out);
}

const char *dvm_devname(uint64_t major)
{
    return ddev_name(test_devs, 2, major);
}

/* Solaris's struct dev_info and `devnamesp[] (d/ddevinfo.h): a line the table names gives its
 * driver's number, instance and name; a line it does not name is the device "irq" of its
 * number; a value that is no line, and a driver no line has, are invalid addresses (ERROR,
 * DVM_F_BADADDR at that value), as a bad pointer is on Solaris. */
static void test_interrupt_devices(void **state)
{
    (void)state;
    compile("BEGIN { trace(((struct dev_info *)arg0)->devi_major); }"
            "BEGIN { this->d = (struct dev_info *)arg0; trace(this->d->devi_instance); }"
            "BEGIN { this->d = (struct dev_info *)arg0;"
            "        trace(stringof(`devnamesp[this->d->devi_major].dn_name)); }"
            "interrupt::irq3:entry { trace(`devnamesp[arg0].dn_name); }");
    load(DVM_BUF_SWITCH, 4096);
    fire(DPROBE_BEGIN, 8);
    fire(DPROBE_BEGIN, 24);
    struct recs r = read_all();
    assert_int_equal(r.nerr, 0);
    assert_int_equal(r.n, 6);
    assert_int_equal(r.first[0], 1);
    assert_int_equal(r.first[1], 0);
    assert_memory_equal(&r.first[2], "timer\0", 6);
    assert_int_equal(r.first[3], DDEV_MAJOR_LINE);
    assert_int_equal(r.first[4], 24);
    assert_memory_equal(&r.first[5], "irq\0", 4);
    fire(DPROBE_BEGIN, DDEV_NLINES);
    r = read_all();
    assert_int_equal(r.nerr, 3);
    for (unsigned k = 0; k < 3; k++) {
        assert_int_equal(r.err[k].er_fault, DVM_F_BADADDR);
        assert_int_equal(r.err[k].er_addr, DDEV_NLINES);
    }
    fire(DPROBE_IRQ_ENTRY(3), 0);   /* (arg0 as a driver's number) the uart's */
    fire(DPROBE_IRQ_ENTRY(3), 7);   /* no line's */
    r = read_all();
    assert_int_equal(r.nerr, 1);
    assert_int_equal(r.err[0].er_addr, 7);
    assert_int_equal(r.n, 1);
    assert_memory_equal(&r.first[0], "uart\0", 5);
}

/* A consumer that may not see kernel addresses (st.scrub, set by the kernel for one without
 * KAPP_F_PRIV): after a firing the work area it can read holds no register, tuple or record
 * value and no context or argument pointer (execname's, the arguments' addresses); without
 * scrub the same firing leaves them there. */
static int work_area_clear(const struct dvm_cpu *c)
{
    int clear = !c->ctx && !c->args;
    for (unsigned i = 0; i < DIF_NREGS; i++)
        clear &= !c->regs[i];
    for (unsigned i = 0; i < DIF_TUPMAX; i++)
        clear &= !c->tup[i];
    for (unsigned i = 0; i < DIF_RECMAX; i++)
        clear &= !c->rec[i];
    return clear;
}

static void test_scrub_after_firing(void **state)
{
    (void)state;
    compile("BEGIN { this->s = execname; x = arg0 + 1; trace(execname); trace(x); }");
    load(DVM_BUF_SWITCH, 4096);
    st.scrub = 0;
    fire(DPROBE_BEGIN, 0x12345678);
    assert_false(work_area_clear(&st.cpus[0]));
    st.scrub = 1;
    fire(DPROBE_BEGIN, 0x12345678);
    assert_true(work_area_clear(&st.cpus[0]));
    st.scrub = 0;
}

/* Kernel frames (docs/hostile.md, "What a consumer may do"): for a consumer that may not see
 * kernel addresses (st.scrub), stack( )'s kernel frames and caller are each an ERROR with the
 * kernel-privilege fault (DTRACEFLT_KPRIV, 6, as ERROR's arg4) and nothing of them recorded;
 * its user frames (ucaller) are its own; without scrub the same clauses give the frames the
 * host's stack hook wrote. */
static unsigned kernel_frames(unsigned kind, uint64_t *pcs, unsigned max)
{
    if (max == 0)
        return 0;
    pcs[0] = kind == DVM_STACK_KERNEL ? 0x80001234u : 0x2000u;
    return 1;
}

static void test_kernel_frames_privilege(void **state)
{
    (void)state;
    compile("BEGIN { @[stack()] = count(); } BEGIN { trace(caller); } BEGIN { trace(ucaller); }"
            " ERROR { trace(arg4); }");
    load(DVM_BUF_SWITCH, 4096);
    dvm_stack_fn saved = dvm_stack;
    dvm_stack = kernel_frames;
    st.scrub = 1;
    fire(DPROBE_BEGIN, 0);
    st.scrub = 0;
    fire(DPROBE_BEGIN, 0);
    dvm_stack = saved;
    struct recs r = read_all();
    assert_int_equal(r.nerr, 2);
    assert_int_equal(r.err[0].er_fault, DVM_F_KPRIV);
    assert_int_equal(r.err[1].er_fault, DVM_F_KPRIV);
    /* scrubbed: 6, 6 from ERROR, ucaller 0x2000; then caller 0x80001234, ucaller 0x2000 */
    assert_int_equal(r.n, 5);
    assert_int_equal(r.first[0], 6);
    assert_int_equal(r.first[1], 6);
    assert_int_equal(r.first[2], 0x2000);
    assert_int_equal(r.first[3], 0x80001234u);
    assert_int_equal(r.first[4], 0x2000);
}

static void test_misaligned(void **state)
{
    (void)state;
    compile("BEGIN { x = \"abcdefgh\"; }");
    prog(0)[0] = DIF_INSTR_IDX(DIF_SETS, 1, 1);
    prog(0)[1] = DIF_INSTR(DIF_LDX, 1, 0, 2);
    load(DVM_BUF_SWITCH, 4096);
    fire(DPROBE_BEGIN, 0);
    struct recs r = read_all();
    assert_int_equal(r.nerr, 1);
    assert_int_equal(r.err[0].er_fault, DVM_F_BADALIGN);
    assert_int_equal(r.err[0].er_offset, 4);
}

static void test_tuple_overflow(void **state)
{
    (void)state;
    compile("BEGIN { x = 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1; }");
    uint32_t n = act(0)->da_prog.dp_len;
    assert_true(n > DIF_TUPMAX + 2);
    for (uint32_t pc = 0; pc < n - 1; pc++)
        prog(0)[pc] = DIF_INSTR(DIF_PUSHT, 0, DIF_TYPE_INT, 0);
    load(DVM_BUF_SWITCH, 4096);
    fire(DPROBE_BEGIN, 0);
    struct recs r = read_all();
    assert_int_equal(r.nerr, 1);
    assert_int_equal(r.err[0].er_fault, DVM_F_TUPLE);
    assert_int_equal(r.err[0].er_offset, DIF_TUPMAX * 4);
}

static void test_scratch_exhaustion(void **state)
{
    (void)state;
    /* nested on the left, so two registers suffice (DIF has seven to give out) */
    compile("BEGIN { s = strjoin(strjoin(strjoin(strjoin(strjoin(strjoin(strjoin(strjoin("
            "strjoin(\"a\", \"b\"), \"c\"), \"d\"), \"e\"), \"f\"), \"g\"), \"h\"), "
            "\"i\"), \"j\"); }");
    load(DVM_BUF_SWITCH, 4096);
    fire(DPROBE_BEGIN, 0);
    struct recs r = read_all();
    assert_int_equal(r.nerr, 1);
    assert_int_equal(r.err[0].er_fault, DVM_F_NOSCRATCH);
}

static void test_error_probe(void **state)
{
    (void)state;
    compile("BEGIN /1 / (pid - pid)/ { trace(1); } ERROR { trace(arg4); }");
    load(DVM_BUF_SWITCH, 4096);
    fire(DPROBE_BEGIN, 0);
    struct recs r = read_all();
    assert_int_equal(r.nerr, 1);
    assert_int_equal(r.err[0].er_action, 0); /* the predicate */
    assert_int_equal(r.n, 1);
    assert_int_equal(r.epid[0], 2);
    assert_int_equal(r.first[0], DVM_F_DIVZERO);
}

static void test_error_in_error(void **state)
{
    (void)state;
    compile("BEGIN { x = 0; y = 1 / x; } ERROR { z = 0; w = 2 / z; }");
    load(DVM_BUF_SWITCH, 4096);
    fire(DPROBE_BEGIN, 0); /* ERROR's own fault is counted (dblerrors), not recorded or refired */
    struct recs r = read_all();
    assert_int_equal(r.nerr, 1);
    assert_int_equal(st.dblerrors[0], 1);
}

/* a speculate( ) with no speculation, or no room left in it, drops the rest of its clause */
static void test_speculate_drops_clause(void **state)
{
    (void)state;
    compile("BEGIN /arg0 == 1/ { speculate(0); x = 5; } "
            "BEGIN /arg0 == 2/ { s = speculation(); } "
            "BEGIN /arg0 == 3/ { speculate(s); trace(tid); y++; } "
            "BEGIN /arg0 == 4/ { trace(x + y); }");
    load(DVM_BUF_SWITCH, 4096); /* speculations of 256 bytes: sixteen 16-byte records */
    fire(DPROBE_BEGIN, 1);
    fire(DPROBE_BEGIN, 2);
    for (int k = 0; k < 16; k++)
        fire(DPROBE_BEGIN, 3);
    assert_int_equal(st.stats[0].specdrops, 0);
    fire(DPROBE_BEGIN, 4); /* y++ ran in the sixteen that fit, x = 5 never */
    struct recs r = read_all();
    assert_int_equal(r.first[r.n - 1], 16);
    compile("BEGIN /arg0 == 1/ { speculate(0); x = 5; } "
            "BEGIN /arg0 == 2/ { s = speculation(); } "
            "BEGIN /arg0 == 3/ { speculate(s); trace(tid); y++; } "
            "BEGIN /arg0 == 4/ { trace(x + y); }");
    load(DVM_BUF_SWITCH, 4096);
    fire(DPROBE_BEGIN, 1);
    fire(DPROBE_BEGIN, 2);
    for (int k = 0; k < 17; k++)
        fire(DPROBE_BEGIN, 3);
    assert_int_equal(st.stats[0].specdrops, 1);
    fire(DPROBE_BEGIN, 4);
    r = read_all();
    assert_int_equal(r.first[r.n - 1], 16); /* not 17: the dropped clause stopped early */
}

/* BEGIN's clauses stop at the first exit( ); elsewhere a second exit( ) drops its record */
static void test_exit_once(void **state)
{
    (void)state;
    compile("BEGIN { exit(1); } BEGIN { trace(2); } "
            "tick-1s { exit(3); } tick-1s { trace(4); exit(5); } END { trace(6); exit(7); }");
    load(DVM_BUF_SWITCH, 4096);
    dvm_fire_begin(&st, &ctx);
    struct recs r = read_all();
    assert_int_equal(r.n, 1);
    assert_int_equal(r.first[0], 1);
    assert_true(st.exiting);
    load(DVM_BUF_SWITCH, 4096);
    st.exiting = 0;
    uint32_t tick = 0;
    for (uint32_t k = 0; k < st.obj.hdr->dh_nprobes; k++)
        if (st.obj.probes[k].dp_period)
            tick = st.obj.probes[k].dp_id;
    dvm_fire(&st, &ctx, tick, NULL);
    r = read_all();
    assert_int_equal(r.n, 1); /* exit(3) only: the second clause's record was dropped */
    assert_int_equal(r.first[0], 3);
    fire(DPROBE_END, 0); /* END may still exit */
    r = read_all();
    assert_int_equal(r.n, 1);
    assert_int_equal(r.first[0], 6);
}

/* buffers the program needs set under 8 bytes do not load (ENOSPC, as DTrace's kernel) */
static void test_tiny_buffers(void **state)
{
    (void)state;
    char err[256];
    compile("BEGIN { trace(1); }");
    struct dvm_opts o = { 7, 64 << 10, 64 << 10, DVM_BUF_SWITCH, 1, 1, 2, 256, 0 };
    assert_int_not_equal(dvm_load(&st, blob, bloblen, &o, mem, sizeof(mem), err, sizeof(err)), 0);
    assert_non_null(strstr(err, "No space"));
    compile("BEGIN { @ = count(); }"); /* aggregating: the principal buffer is raised */
    o.bufsize = 0;
    assert_int_equal(dvm_load(&st, blob, bloblen, &o, mem, sizeof(mem), err, sizeof(err)), 0);
    o.aggsize = 4;
    assert_int_not_equal(dvm_load(&st, blob, bloblen, &o, mem, sizeof(mem), err, sizeof(err)), 0);
    compile("BEGIN { s = speculation(); } BEGIN { speculate(s); trace(1); }");
    o = (struct dvm_opts){ 4096, 64 << 10, 64 << 10, DVM_BUF_SWITCH, 1, 1, 2, 4, 0 };
    assert_int_not_equal(dvm_load(&st, blob, bloblen, &o, mem, sizeof(mem), err, sizeof(err)), 0);
}

static void test_switch_drops(void **state)
{
    (void)state;
    compile("BEGIN { trace(arg0); }");
    load(DVM_BUF_SWITCH, 40); /* 16-byte records: two fit */
    for (int k = 0; k < 5; k++)
        fire(DPROBE_BEGIN, (uint64_t)k);
    assert_int_equal(st.stats[0].drops, 3);
    struct recs r = read_all();
    assert_int_equal(r.n, 2);
    assert_int_equal(r.first[0], 0);
    assert_int_equal(r.first[1], 1);
    fire(DPROBE_BEGIN, 9); /* after a switch there is room again */
    r = read_all();
    assert_int_equal(r.n, 1);
    assert_int_equal(r.first[0], 9);
}

/* A clause that records its header alone (`probe { }`, also behind a fast predicate) skips
 * the interpreter (DVM_LINK_HDRONLY) and writes the same records, drops counted the same. */
static void test_header_only_clause(void **state)
{
    (void)state;
    compile("BEGIN { } BEGIN /arg0 == 1/ { } BEGIN { trace(arg0); }");
    load(DVM_BUF_SWITCH, 32); /* 8 + 8 + 16 bytes fit once */
    assert_true(st.ecb_link[1].constagg & DVM_LINK_HDRONLY);
    assert_true(st.ecb_link[2].constagg & DVM_LINK_HDRONLY);
    assert_false(st.ecb_link[3].constagg & DVM_LINK_HDRONLY);
    fire(DPROBE_BEGIN, 1);
    fire(DPROBE_BEGIN, 0); /* no room: the first and third clauses' records are dropped */
    assert_int_equal(st.stats[0].drops, 2);
    struct recs r = read_all();
    assert_int_equal(r.n, 3);
    for (unsigned k = 0; k < 3; k++)
        assert_int_equal(r.epid[k], k + 1);
    assert_int_equal(r.first[2], 1);
}

static void test_ring_keeps_newest(void **state)
{
    (void)state;
    compile("BEGIN { trace(arg0); }");
    load(DVM_BUF_RING, 64); /* four 16-byte records */
    for (int k = 0; k < 10; k++)
        fire(DPROBE_BEGIN, (uint64_t)k);
    struct recs r = read_all();
    assert_int_equal(r.n, 4);
    for (int k = 0; k < 4; k++)
        assert_int_equal(r.first[k], 6 + k);
}

static void test_fill_reserves_end(void **state)
{
    (void)state;
    compile("BEGIN { trace(arg0); } END { trace(99); }");
    load(DVM_BUF_FILL, 48); /* three records, one kept for END */
    for (int k = 0; k < 5; k++)
        fire(DPROBE_BEGIN, (uint64_t)k);
    assert_true(st.stats[0].filled);
    fire(DPROBE_END, 0);
    struct recs r = read_all();
    assert_int_equal(r.n, 3);
    assert_int_equal(r.first[2], 99);

    struct dvm_opts o = { 8, 1024, 1024, DVM_BUF_FILL, 1, 1, 0, 0, 0 };
    char err[256];
    assert_int_equal(dvm_load(&st, blob, bloblen, &o, mem, sizeof(mem), err, sizeof(err)), -1);
    assert_string_equal(err, "END enablings exceed size of principal buffer");
}

struct aggsum {
    int64_t count_x, sum, q4;
};

static void agg_cb(void *arg, unsigned agg, const uint8_t *keys, const int64_t *vals)
{
    struct aggsum *s = arg;
    if (agg == 0 && strcmp((const char *)keys, "x") == 0)
        s->count_x = vals[0];
    if (agg == 1)
        s->sum = vals[0];
    if (agg == 2)
        s->q4 = vals[DIF_QUANTIZE_ZERO + 3];
}

static void test_aggregations(void **state)
{
    (void)state;
    compile("BEGIN { @a[\"x\"] = count(); @s = sum(arg0); @q = quantize(arg0); }");
    load(DVM_BUF_SWITCH, 4096);
    fire(DPROBE_BEGIN, 4);
    fire(DPROBE_BEGIN, 5);
    fire(DPROBE_BEGIN, 100);
    struct aggsum s = { 0, 0, 0 };
    dvm_agg_walk(&st, 0, agg_cb, &s);
    assert_int_equal(s.count_x, 3);
    assert_int_equal(s.sum, 109);
    assert_int_equal(s.q4, 2); /* 4 and 5 land in the [4, 8) bucket */
    dvm_agg_clear(&st, 0);
    dvm_agg_walk(&st, 0, agg_cb, &s);
    assert_int_equal(s.count_x, 0);
}

struct incr_rows {
    int64_t q[DIF_QUANTIZE_NBUCKETS], c;
};

static void incr_cb(void *arg, unsigned agg, const uint8_t *keys, const int64_t *vals)
{
    struct incr_rows *r = arg;
    (void)keys;
    if (agg == 0)
        memcpy(r->q, vals, sizeof(r->q));
    if (agg == 1)
        r->c = vals[0];
}

/* quantize(v, incr): the bucket grows by the increment, negative ones included, on the
 * keyed path; a count( ) in the same clause still counts 1; INT64_MIN lands in the first
 * bucket (it used to loop for ever looking for its power of two). */
static void test_agg_increment(void **state)
{
    (void)state;
    compile("BEGIN { @q[1] = quantize(arg0, arg0 == 4 ? -3 : 10); @c = count(); }");
    load(DVM_BUF_SWITCH, 4096);
    fire(DPROBE_BEGIN, 4);
    fire(DPROBE_BEGIN, 5);
    fire(DPROBE_BEGIN, 100);
    fire(DPROBE_BEGIN, (uint64_t)INT64_MIN);
    struct incr_rows r;
    memset(&r, 0, sizeof(r));
    dvm_agg_walk(&st, 0, incr_cb, &r);
    assert_int_equal(r.q[DIF_QUANTIZE_ZERO + 3], -3 + 10);  /* 4 and 5 */
    assert_int_equal(r.q[DIF_QUANTIZE_ZERO + 7], 10);       /* 100 */
    assert_int_equal(r.q[0], 10);                           /* INT64_MIN */
    assert_int_equal(r.c, 4);
}

/* Negative and extreme values and increments in the quantize family (negquant / neglquant
 * programs could make agg.c overflow a signed value): no undefined behaviour (this binary runs
 * under UBSan without recovery), each value in its bucket. */
static void test_agg_negative_extremes(void **state)
{
    (void)state;
    compile("BEGIN { @q = quantize(arg0, 9223372036854775807); "
            "@m = quantize(arg0, -9223372036854775807 - 1); "
            "@l = lquantize(arg0, -100, 100, 10, 9223372036854775807); "
            "@ll = llquantize(arg0, 10, 0, 6, 20, -1); @n = lquantize(arg0, -100, 100, 10); }");
    load(DVM_BUF_SWITCH, 4096);
    const int64_t xs[] = { INT64_MIN, INT64_MIN + 1, -101, -100, -1, 0, 1, 99, 100, INT64_MAX };
    for (unsigned i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
        fire(DPROBE_BEGIN, (uint64_t)xs[i]);
        fire(DPROBE_BEGIN, (uint64_t)xs[i]);
    }
    struct recs r = read_all();
    assert_int_equal(r.nerr, 0);
}

/* dvm_agg_remove reads no more of the key than its caller says it holds, whatever the
 * aggregation's keys (reading a whole key from any pointer would overflow: under ASan an
 * 8-byte block read as a string key is a heap overflow), and refuses an aggregation the program
 * has not got. */
static void test_agg_remove_reads_only_len(void **state)
{
    (void)state;
    compile("BEGIN { @[\"a key longer than eight bytes\"] = count(); }");
    load(DVM_BUF_SWITCH, 4096);
    fire(DPROBE_BEGIN, 0);
    uint8_t *eight = malloc(8);
    assert_non_null(eight);
    memcpy(eight, "a key lo", 8);
    assert_int_equal(dvm_agg_remove(&st, 0, eight, 8), 0);
    assert_int_equal(dvm_agg_remove(&st, 7, eight, 8), -1);
    assert_int_equal(dvm_agg_remove(&st, 0, NULL, 0), -1);
    free(eight);
}

struct keyed {
    int64_t n[3];
};

static void keyed_cb(void *arg, unsigned agg, const uint8_t *keys, const int64_t *vals)
{
    struct keyed *k = arg;
    int64_t key;
    memcpy(&key, keys, 8);
    if (agg == 0 && key >= 0 && key < 3)
        k->n[key] = vals[0];
}

/* The per-action key cache must never outlive what it points at: removed keys start again,
 * cleared ones keep their entry, a full table drops. */
static void test_agg_key_cache(void **state)
{
    (void)state;
    compile("BEGIN { @c[arg0] = count(); @s[probefunc] = sum(arg0); }");
    load(DVM_BUF_SWITCH, 4096);
    for (int k = 0; k < 5; k++)
        fire(DPROBE_BEGIN, 1);
    fire(DPROBE_BEGIN, 2);
    fire(DPROBE_BEGIN, 1);
    struct keyed r = { { 0, 0, 0 } };
    dvm_agg_walk(&st, 0, keyed_cb, &r);
    assert_int_equal(r.n[1], 6);
    assert_int_equal(r.n[2], 1);
    uint64_t one[2] = { 1, 0 };
    dvm_agg_remove(&st, 0, (const uint8_t *)one, sizeof(one)); /* as trunc() does */
    fire(DPROBE_BEGIN, 1);
    memset(&r, 0, sizeof(r));
    dvm_agg_walk(&st, 0, keyed_cb, &r);
    assert_int_equal(r.n[1], 1);
    dvm_agg_clear(&st, 0);
    fire(DPROBE_BEGIN, 1);
    fire(DPROBE_BEGIN, 1);
    memset(&r, 0, sizeof(r));
    dvm_agg_walk(&st, 0, keyed_cb, &r);
    assert_int_equal(r.n[1], 2);
    assert_int_equal(r.n[2], 0);
}

/* per-probe counts of @[probename] (agg 0) and the other aggregations' single entries */
struct probe_counts {
    int64_t on, off, one, pid100, exec_on;
};

static void probe_counts_cb(void *arg, unsigned agg, const uint8_t *keys, const int64_t *vals)
{
    struct probe_counts *r = arg;
    int64_t key;
    memcpy(&key, keys, 8);
    if (agg == 0 && strcmp((const char *)keys, "on-cpu") == 0)
        r->on = vals[0];
    if (agg == 0 && strcmp((const char *)keys, "off-cpu") == 0)
        r->off = vals[0];
    if (agg == 1 && strcmp((const char *)keys, "one") == 0)
        r->one = vals[0];
    if (agg == 2 && key == 100)
        r->pid100 = vals[0];
    if (agg == 3 && strcmp((const char *)keys, "on-cpu") == 0)
        r->exec_on = vals[0];
}

static struct probe_counts probe_counts(void)
{
    struct probe_counts r = { 0, 0, 0, 0, 0 };
    dvm_agg_walk(&st, 0, probe_counts_cb, &r);
    return r;
}

/* @[tid] = count() and self->v = arg0 skip the interpreter once the CPU has found their entry
 * or variable (DVM_LINK_CTXKEY, DVM_LINK_SELFSET): the results must be the interpreter's as
 * the key and the thread change, and a zero stored (which frees the variable) must free it. */
static int64_t ck_count[3], ck_ts[3];
static void ctxkey_cb(void *arg, unsigned agg, const uint8_t *keys, const int64_t *vals)
{
    (void)arg;
    int64_t key;
    memcpy(&key, keys, 8);
    if (key < 7 || key > 9)
        return;
    if (agg == 0)
        ck_count[key - 7] = vals[0];
    else
        ck_ts[key - 7] = vals[0];
}

static void on_thread(int32_t tid, uint32_t probe, uint64_t a0)
{
    int32_t old = ctx.tid;
    ctx.tid = tid;
    fire(probe, a0);
    ctx.tid = old;
}

static void test_agg_ctxkey_selfset(void **state)
{
    (void)state;
    compile("sched:::on-cpu { @c[tid] = count(); }"
            "sched:::on-cpu { self->ts = arg0; }"
            "sched:::off-cpu { @t[tid] = sum(self->ts); }");
    load(DVM_BUF_SWITCH, 4096);
    assert_true(st.ecb_link[1].constagg & DVM_LINK_CTXKEY);
    assert_true(st.ecb_link[2].constagg & DVM_LINK_SELFSET);
    assert_int_equal(st.ecb_link[3].constagg, 0);
    for (int k = 0; k < 3; k++)
        on_thread(7, DPROBE_SCHED_ONCPU, 5);
    on_thread(8, DPROBE_SCHED_ONCPU, 9);
    on_thread(8, DPROBE_SCHED_ONCPU, 9);
    on_thread(7, DPROBE_SCHED_ONCPU, 11); /* back to thread 7: its key and variable again */
    on_thread(9, DPROBE_SCHED_ONCPU, 4);
    on_thread(9, DPROBE_SCHED_ONCPU, 0);  /* frees self->ts of thread 9 */
    on_thread(7, DPROBE_SCHED_OFFCPU, 0);
    on_thread(8, DPROBE_SCHED_OFFCPU, 0);
    on_thread(9, DPROBE_SCHED_OFFCPU, 0);
    memset(ck_count, 0, sizeof(ck_count));
    memset(ck_ts, -1, sizeof(ck_ts));
    dvm_agg_walk(&st, 0, ctxkey_cb, NULL);
    assert_int_equal(ck_count[0], 4);
    assert_int_equal(ck_count[1], 2);
    assert_int_equal(ck_count[2], 2);
    assert_int_equal(ck_ts[0], 11);
    assert_int_equal(ck_ts[1], 9);
    assert_int_equal(ck_ts[2], 0);
    assert_int_equal(st.stats[0].dynvardrops, 0);
}

/* An aggregation whose keys and value depend on the probe alone skips its program once its
 * entry is known (struct dvm_ecb_link). Only such clauses may take that path, and the counts
 * must be what the interpreter gives: per probe of a shared clause, after a removed key
 * (revived from 1) and after clear() (same entry, from 0). */
static void test_agg_probe_constant(void **state)
{
    (void)state;
    compile("sched:::on-cpu, sched:::off-cpu { @[probename] = count(); }"
            "sched:::on-cpu /arg0 == 1/ { @f[\"one\"] = sum(2); }"
            "sched:::on-cpu { @p[pid] = count(); }"
            "sched:::on-cpu /execname == \"test\"/ { @e[probename] = count(); }");
    load(DVM_BUF_SWITCH, 4096);
    unsigned cached = 0;
    for (uint32_t e = 1; e <= st.obj.hdr->dh_necbs; e++) {
        uint32_t clause = st.obj.ecbs[e - 1].de_clause;
        /* clauses 0 and 1 qualify; a per-firing key (pid) takes the context-key shortcut;
         * an interpreted predicate none */
        uint32_t w = st.ecb_link[e].constagg;
        if (clause <= 1)
            assert_true(w != 0 && !(w & DVM_LINK_KINDS));
        else if (clause == 2)
            assert_true(w & DVM_LINK_CTXKEY);
        else
            assert_int_equal(w, 0);
        cached += w != 0 && !(w & DVM_LINK_KINDS);
    }
    assert_int_equal(cached, 3);

    static const uint64_t on_args[3] = { 1, 0, 1 };
    for (int k = 0; k < 3; k++) {
        fire(DPROBE_SCHED_ONCPU, on_args[k]);
        if (k < 2)
            fire(DPROBE_SCHED_OFFCPU, 0);
    }
    struct probe_counts r = probe_counts();
    assert_int_equal(r.on, 3);
    assert_int_equal(r.off, 2);
    assert_int_equal(r.one, 4);
    assert_int_equal(r.pid100, 3);
    assert_int_equal(r.exec_on, 3);

    static uint8_t key[1024];
    memset(key, 0, sizeof(key));
    strcpy((char *)key, "on-cpu");
    dvm_agg_remove(&st, 0, key, sizeof(key)); /* as trunc() does */
    fire(DPROBE_SCHED_ONCPU, 0);
    fire(DPROBE_SCHED_OFFCPU, 0);
    r = probe_counts();
    assert_int_equal(r.on, 1);
    assert_int_equal(r.off, 3);

    dvm_agg_clear(&st, 0);
    fire(DPROBE_SCHED_OFFCPU, 0);
    r = probe_counts();
    assert_int_equal(r.on, 0);
    assert_int_equal(r.off, 1);
    assert_int_equal(r.exec_on, 4);
}

/* A member store into a struct-valued array's element may write only that element's value,
 * within the struct's size: the compiler's store moved one word past the 8-byte struct (the
 * chunk's value part is larger: strsize) or back into the chunk's key is an invalid address;
 * in range it lands. */
static void struct_store_at(int64_t off, unsigned want_fault)
{
    compile("struct s { int a; int b; } r[int]; BEGIN { r[1].b = 5; trace(r[1].b); }");
    uint64_t *ints = (uint64_t *)((uint8_t *)blob + hdr()->dh_ints);
    uint32_t pc = find_op(0, DIF_STW);
    unsigned k = pc;
    while (k-- > 0 && DIF_OP(prog(0)[k]) != DIF_SETX)
        ;
    assert_int_equal(ints[DIF_IDX(prog(0)[k])], 4); /* the member's offset */
    ints[DIF_IDX(prog(0)[k])] = (uint64_t)off;
    load(DVM_BUF_SWITCH, 4096);
    fire(DPROBE_BEGIN, 0);
    struct recs r = read_all();
    assert_int_equal(r.nerr, want_fault ? 1 : 0);
    if (want_fault) {
        assert_int_equal(r.err[0].er_fault, want_fault);
        assert_int_equal(r.err[0].er_offset, pc * 4);
    } else {
        assert_int_equal(r.n, 1);
    }
}

static void test_struct_value_bounds(void **state)
{
    (void)state;
    struct_store_at(4, 0);
    struct_store_at(0, 0);
    struct_store_at(8, DVM_F_BADADDR);    /* past the struct, inside the chunk */
    struct_store_at(-8, DVM_F_BADADDR);   /* the chunk's key */
    struct_store_at(-24, DVM_F_BADADDR);  /* its header */
    struct_store_at(4096, DVM_F_BADADDR); /* another chunk (free) */
}

static void test_thread_locals(void **state)
{
    (void)state;
    compile("BEGIN /arg0 == 1/ { self->v = tid * 10; } BEGIN /arg0 == 2/ { trace(self->v); }");
    load(DVM_BUF_SWITCH, 4096);
    ctx.tid = 7;
    fire(DPROBE_BEGIN, 1);
    ctx.tid = 8;
    fire(DPROBE_BEGIN, 2); /* another thread: nothing stored */
    ctx.tid = 7;
    fire(DPROBE_BEGIN, 2);
    struct recs r = read_all(); /* the storing clause records nothing */
    assert_int_equal(r.n, 2);
    assert_int_equal(r.first[0], 0);
    assert_int_equal(r.first[1], 70);
}

static void test_speculation(void **state)
{
    (void)state;
    compile("BEGIN /arg0 == 1/ { self->s = speculation(); } "
            "BEGIN /arg0 == 2/ { speculate(self->s); trace(tid); } "
            "BEGIN /arg0 == 3/ { commit(self->s); } BEGIN /arg0 == 4/ { discard(self->s); }");
    load(DVM_BUF_SWITCH, 4096); /* two speculations of 256 bytes: sixteen 16-byte records each */
    fire(DPROBE_BEGIN, 1);
    fire(DPROBE_BEGIN, 2);
    fire(DPROBE_BEGIN, 2);
    struct recs r = read_all(); /* nothing yet: only the records of the non-data clauses */
    for (unsigned k = 0; k < r.n; k++)
        assert_true(r.epid[k] != 2);
    fire(DPROBE_BEGIN, 3);
    r = read_all();
    unsigned spec = 0;
    for (unsigned k = 0; k < r.n; k++)
        spec += r.epid[k] == 2;
    assert_int_equal(spec, 2);
    fire(DPROBE_BEGIN, 1); /* a discarded speculation leaves nothing */
    fire(DPROBE_BEGIN, 2);
    fire(DPROBE_BEGIN, 4);
    fire(DPROBE_BEGIN, 3);
    r = read_all();
    for (unsigned k = 0; k < r.n; k++)
        assert_true(r.epid[k] != 2);
    fire(DPROBE_BEGIN, 1); /* overflowing specsize counts speculative drops */
    for (int k = 0; k < 18; k++)
        fire(DPROBE_BEGIN, 2);
    assert_int_equal(st.stats[0].specdrops, 2);
    fire(DPROBE_BEGIN, 1);
    fire(DPROBE_BEGIN, 1); /* both buffers busy: speculation() fails */
    assert_int_equal(st.stats[0].specfailed, 1);
}

static void test_random_bytecode(void **state)
{
    (void)state;
    /* random programs that pass the verifier run to completion or fault, never crash */
    srand(2);
    unsigned ran = 0;
    for (int k = 0; k < 3000; k++) {
        compile("BEGIN { x = arg0 + 1 + 2 + 3 + 4 + 5 + 6 + 7; a[\"k\"] = strjoin(\"a\", \"b\"); "
                "trace(x); }");
        uint32_t n = act(0)->da_prog.dp_len;
        for (uint32_t pc = 0; pc + 1 < n; pc++)
            if (rand() % 3 == 0)
                prog(0)[pc] = (uint32_t)rand() ^ ((uint32_t)rand() << 16);
        struct dif_obj o;
        char err[256];
        if (dif_verify(blob, bloblen, &o, err, sizeof(err)) != 0)
            continue;
        load(DVM_BUF_SWITCH, 4096);
        fire(DPROBE_BEGIN, (uint64_t)rand());
        (void)read_all();
        ran++;
    }
    assert_true(ran > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_divzero),           cmocka_unit_test(test_bad_address),
        cmocka_unit_test(test_misaligned),        cmocka_unit_test(test_tuple_overflow),
        cmocka_unit_test(test_scratch_exhaustion), cmocka_unit_test(test_error_probe),
        cmocka_unit_test(test_error_in_error),    cmocka_unit_test(test_switch_drops),
        cmocka_unit_test(test_header_only_clause),
        cmocka_unit_test(test_ring_keeps_newest), cmocka_unit_test(test_fill_reserves_end),
        cmocka_unit_test(test_aggregations),      cmocka_unit_test(test_thread_locals),
        cmocka_unit_test(test_struct_value_bounds),
        cmocka_unit_test(test_agg_key_cache),     cmocka_unit_test(test_agg_probe_constant),
        cmocka_unit_test(test_agg_ctxkey_selfset),
        cmocka_unit_test(test_agg_increment),
        cmocka_unit_test(test_agg_negative_extremes),
        cmocka_unit_test(test_fault_addr_not_stale), cmocka_unit_test(test_user_read_privilege),
        cmocka_unit_test(test_kernel_frames_privilege),
        cmocka_unit_test(test_kernel_variable), cmocka_unit_test(test_scrub_after_firing),
        cmocka_unit_test(test_interrupt_devices),
        cmocka_unit_test(test_agg_remove_reads_only_len),     cmocka_unit_test(test_speculate_drops_clause),
        cmocka_unit_test(test_tiny_buffers),      cmocka_unit_test(test_exit_once),
            cmocka_unit_test(test_speculation),       cmocka_unit_test(test_random_bytecode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
