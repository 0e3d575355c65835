// SPDX-License-Identifier: MIT
// The kernel-call part of the event table (trace/kev_events.h): how QNX lays out kernel-call
// events, as data: for each QNX kernel-call number
// (<sys/kercalls.h> __KER_*, which uapi/kcall.h uses) the name QNX prints and the list of
// argument fields of its entry and exit events. The field decoder names KER_CALL fields from it and
// traceprinter formats KER_CALL / KER_EXIT lines from it as QNX's do (qnx_kercall.c). The facts (names,
// labels, field types and order) were taken from QNX's published traceprinter source
// (utils/t/traceprinter/traceprinter.c in github.com/vocho/openqnx); the code is ours.
//
// A field is "<f><T><label>": f (optional) = also shown in fast mode (2-word events); T = H hex
// word, D signed decimal word, P pointer, S first 4 bytes of a string, s 4 more string bytes.
// NULL: QNX prints no fixed layout for that event (we print raw words).
#include <stddef.h>
#include <trace/kev_kercall.h>

const struct qnx_kercall qnx_kercalls[QNX_KERCALL_NUM] = {
    [0] = { "NOP", "fHdummy fHempty", "fHempty fHempty" },
    [1] = { "TRACE_EVENT", "fHmode fHclass[header] Hevent[time_off] Hdata_1 Hdata_2", "fHret_val fHempty" },
    [2] = { "RING0", "fPfunc_p fParg_p", "fHret_val fHempty" },
    [3] = { "SPARE1", "fHempty fHempty", "fHempty fHempty" },
    [4] = { "SPARE2", "fHempty fHempty", "fHempty fHempty" },
    [5] = { "SPARE3", "fHempty fHempty", "fHempty fHempty" },
    [6] = { "SPARE4", "fHempty fHempty", "fHempty fHempty" },
    [7] = { "SYS_CPUPAGE_GET", "fDindex fHempty", "fHret_val fHempty" },
    [8] = { "SYS_CPUPAGE_SET", "fDindex fHvalue", "fHret_val fHempty" },
    [9] = { "SYS_SPARE1", "fHempty fHempty", "fHempty fHempty" },
    [10] = { "MSG_CURRENT", "fHrcvid fHempty", "fHempty fHempty" },
    [11] = { "MSG_SENDV", "fHcoid Dsparts Drparts fSmsg s s", "fDstatus fSrmsg s s" },
    [12] = { "MSG_SENDVNC", "fHcoid Dsparts Drparts fSmsg s s", "fHret_val fSrmsg s s" },
    [13] = { "MSG_ERROR", "fHrcvid fDerr", "fDret_val fHempty" },
    [14] = { "MSG_RECEIVEV", "fHchid fDrparts", "fHrcvid fSrmsg s s Dinfo->nd Dinfo->srcnd Dinfo->pid Dinfo->tid Dinfo->chid Dinfo->scoid Dinfo->coid Dinfo->msglen Dinfo->srcmsglen Dinfo->dstmsglen Dinfo->priority Dinfo->flags Dinfo->reserved" },
    [15] = { "MSG_REPLYV", "fHrcvid Dsparts fHstatus Ssmsg s s", "fDret_val fHempty" },
    [16] = { "MSG_READV", "fHrcvid Prmsg_p Drparts fHoffset", "fDrbytes fSrmsg s s" },
    [17] = { "MSG_WRITEV", "fHrcvid Dsparts fHoffset Smsg s s", "fDwbytes fHempty" },
    [18] = { "MSG_READWRITEV", "fHsrc_rcvid fHdst_rcvid", "fDmsglen fHempty" },
    [19] = { "MSG_INFO", "fHrcvid fPinfo_p", NULL },
    [20] = { "MSG_SEND_PULSE", "fHcoid Dpriority fHcode Hvalue", "fDstatus fHempty" },
    [21] = { "MSG_DELIVER_EVENT", "fHrcvid fDevent->sigev_notify Pevent->sigev_notify_function_p Hevent->sigev_value Pevent->sigev_notify_attributes_p", "fHret_val fHempty" },
    [22] = { "MSG_KEYDATA", "fHrcvid fHop", "fHret_val fDnewkey" },
    [23] = { "MSG_READIOV", "fHrcvid Dparts fHoffset Hflags", "fDrbytes fSrmsg s s" },
    [24] = { "MSG_RECEIVEPULSEV", "fHchid fDrparts", NULL },
    [25] = { "MSG_VERIFY_EVENT", "fHrcvid fDevent->sigev_notify Pevent->sigev_notify_function_p Hevent->sigev_value Pevent->sigev_notify_attributes_p", "fDstatus fHempty" },
    [26] = { "SIGNAL_KILL", "Hnd fDpid Dtid fDsigno Hcode Hvalue", "fDret_val fHempty" },
    [27] = { "SIGNAL_RETURN", "fPs_p fHempty", "fHret_val fHempty" },
    [28] = { "SIGNAL_FAULT", "fDsigcode fPaddr", "fHret_val fHreg_1 Hreg_2 Hreg_3 Hreg_4 Hreg_5" },
    [29] = { "SIGNAL_ACTION", "Dpid Psigstub_p fDsigno fPact->sa_handler_p Hact->sa_flags Hact->sa_mask.bits[0] Hact->sa_mask.bits[1]", "fHret_val fPoact->sa_handler_p Hoact->sa_flags Hoact->sa_mask.bits[0] Hoact->sa_mask.bits[1]" },
    [30] = { "SIGNAL_PROCMASK", "fDpid fDtid Hhow Hsig_blocked->bits[0] Hsig_blocked->bits[1]", "fDret_val fHold_sig_blocked->bits[0] Hold_sig_blocked->bits[1]" },
    [31] = { "SIGNAL_SUSPEND", "fHsig_blocked->bits[0] fHsig_blocked->bits[1]", "fHret_val fPsig_blocked_p" },
    [32] = { "SIGNAL_WAITINFO", "fHsig_wait->bits[0] fHsig_wait->bits[1]", NULL },
    [33] = { "SIGNAL_SPARE1", "fHempty fHempty", "fHempty fHempty" },
    [34] = { "SIGNAL_SPARE2", "fHempty fHempty", "fHempty fHempty" },
    [35] = { "CHANNEL_CREATE", "fHflags fHempty", "fHchid fHempty" },
    [36] = { "CHANNEL_DESTROY", "fHchid fHempty", "fHret_val fHempty" },
    [37] = { "CHANCON_ATTR", "fDchid fHflags", "fDchid fHflags" },
    [38] = { "CHANNEL_SPARE1", "fHempty fHempty", "fHempty fHempty" },
    [39] = { "CONNECT_ATTACH", "fHnd fDpid Hchid Dindex Hflags", "fHcoid fHempty" },
    [40] = { "CONNECT_DETACH", "fHcoid fHempty", "fHret_val fHempty" },
    [41] = { "CONNECT_SERVER_INFO", "fDpid fHcoid", NULL },
    [42] = { "CONNECT_CLIENT_INFO", "fHscoid fDngroups", NULL },
    [43] = { "CONNECT_FLAGS", "Dpid fHcoid Hmasks fHbits", "fHold_flags fHempty" },
    [44] = { "CONNECT_SPARE1", "fHempty fHempty", "fHempty fHempty" },
    [45] = { "CONNECT_SPARE2", "fHempty fHempty", "fHempty fHempty" },
    [46] = { "THREAD_CREATE", "Dpid fPfunc_p fParg_p Hflags Dstacksize Pstackaddr_p Pexitfunc_p Dpolicy Dsched_priority Dsched_curpriority Dparam.__ss_low_priority Dparam.__ss_max_repl Dparam.__ss_repl_period.tv_sec Dparam.__ss_repl_period.tv_nsec Dparam.__ss_init_budget.tv_sec Dparam.__ss_init_budget.tv_nsec Dparam.empty Dparam.empty Dguardsize Dempty Dempty Dempty", "fHthread_id fHowner" },
    [47] = { "THREAD_DESTROY", "fDtid Dpriority fPstatus_p", "fHret_val fHempty" },
    [48] = { "THREAD_DESTROYALL", "fHempty fHempty", "fHret_val fHempty" },
    [49] = { "THREAD_DETACH", "fDtid fHempty", "fHret_val fHempty" },
    [50] = { "THREAD_JOIN", "fDtid fPstatus_p", "fHret_val fPstatus_p" },
    [51] = { "THREAD_CANCEL", "fDtid fPcanstub_p", "fHret_val fHempty" },
    [52] = { "THREAD_CTL", "fHcmd fPdata_p", "fHret_val fHempty" },
    [53] = { "THREAD_SPARE1", "fHempty fHempty", "fHempty fHempty" },
    [54] = { "THREAD_SPARE2", "fHempty fHempty", "fHempty fHempty" },
    [55] = { "INTERRUPT_ATTACH", "fDintr Phandler_p Parea_p Dareasize fHflags", "fHint_fun_id fHempty" },
    [56] = { "INTERRUPT_DETACH_FUNC", "fDintr fPhandler_p", "fDret_val fHempty" },
    [57] = { "INTERRUPT_DETACH", "fDid fHempty", "fDret_val fHempty" },
    [58] = { "INTERRUPT_WAIT", "fHflags fDtimeout_tv_sec Dtimeout_tv_nsec", "fDret_val fHempty" },
    [59] = { "INTERRUPT_MASK", "fDintr fDid", "fHmask_level fHempty" },
    [60] = { "INTERRUPT_UNMASK", "fDintr fDid", "fHmask_level fHempty" },
    [61] = { "INTERRUPT_SPARE1", "fHempty fHempty", "fHempty fHempty" },
    [62] = { "INTERRUPT_SPARE2", "fHempty fHempty", "fHempty fHempty" },
    [63] = { "INTERRUPT_SPARE3", "fHempty fHempty", "fHempty fHempty" },
    [64] = { "INTERRUPT_SPARE4", "fHempty fHempty", "fHempty fHempty" },
    [65] = { "CLOCK_TIME", "fDid fDnew(sec) Dnew(nsec)", "fDret_val fDold(sec) Dold(nsec)" },
    [66] = { "CLOCK_ADJUST", "fDid fDnew->tick_count Dnew->tick_nsec_inc", "fDret_val fDold->tick_count Dold->tick_nsec_inc" },
    [67] = { "CLOCK_PERIOD", "fDid fDnew->nsec Dnew->fract", "fDret_val fDold->nsec Dold->fract" },
    [68] = { "CLOCK_ID", "fDpid fDtid", "fHret_val fHempty" },
    [69] = { "CLOCK_SPARE2", "fHempty fHempty", "fHempty fHempty" },
    [70] = { "TIMER_CREATE", "fHid fDevent->sigev_notify Pevent->sigev_notify_function_p Hevent->sigev_value Pevent->sigev_notify_attributes_p", "fHtimer_id fHempty" },
    [71] = { "TIMER_DESTROY", "fHid fHempty", "fHret_val fHempty" },
    [72] = { "TIMER_SETTIME", "fHid Hflags fDitime->nsec(sec) Ditime->nsec(nsec) Ditime->interval_nsec(sec) Ditime->interval_nsec(nsec)", "fHret_val fDoitime->nsec(sec) Doitime->nsec(nsec) Doitime->interval_nsec(sec) Doitime->interval_nsec(nsec)" },
    [73] = { "TIMER_INFO", "fDpid fHid Hflags Pinfo_p", NULL },
    [74] = { "TIMER_ALARM", "fHid fDitime->nsec(sec) Ditime->nsec(nsec) Ditime->interval_nsec(sec) Ditime->interval_nsec(nsec)", "fHret_val fDoitime->nsec(sec) Doitime->nsec(nsec) Doitime->interval_nsec(sec) Doitime->interval_nsec(nsec)" },
    [75] = { "TIMER_TIMEOUT", "Did fHtimeout_flags fDntime(sec) Dntime(nsec) Devent->sigev_notify Pevent->sigev_notify_function_p Hevent->sigev_value Pevent->sigev_notify_attributes_p", "fHprev_timeout_flags fDotime(sec) Dotime(nsec)" },
    [76] = { "TIMER_SPARE1", "fHempty fHempty", "fHempty fHempty" },
    [77] = { "TIMER_SPARE2", "fHempty fHempty", "fHempty fHempty" },
    [78] = { "SYNC_CREATE", "fDtype fPsync_p Dcount Downer Dprotocol Hflags Dprioceiling Dclockid", "fDret_val fHempty" },
    [79] = { "SYNC_DESTROY", "fPsync_p Dcount fDowner", "fDret_val fHempty" },
    [80] = { "SYNC_MUTEX_LOCK", "fPsync_p Dcount fDowner", "fDret_val fHempty" },
    [81] = { "SYNC_MUTEX_UNLOCK", "fPsync_p Dcount fDowner", "fDret_val fHempty" },
    [82] = { "SYNC_CONDVAR_WAIT", "fPsync_p fPmutex_p Dsync->count Dsync->owner Dmutex->count Dmutex->owner", "fDret_val fHempty" },
    [83] = { "SYNC_CONDVAR_SIGNAL", "fPsync_p fDall Dsync->count Dsync->owner", "@SYNC_CONDVAR_SIG fDret_val fHempty" },
    [84] = { "SYNC_SEM_POST", "fPsync_p fDcount Downer", "fHret_val fHempty" },
    [85] = { "SYNC_SEM_WAIT", "fPsync_p Dtry fDcount Downer", "fDret_val fHempty" },
    [86] = { "SYNC_CTL", "fDcmd fPsync_p Pdata_p Dcount Downer", "fDret_val fHempty" },
    [87] = { "SYNC_MUTEX_REVIVE", "fPsync_p Dcount fDowner", "fDret_val fHempty" },
    [88] = { "SCHED_GET", "fDpid fDtid", NULL },
    [89] = { "SCHED_SET", "fDpid Dtid Dpolicy fDsched_priority Dsched_curpriority Dparam.__ss_low_priority Dparam.__ss_max_repl Dparam.__ss_repl_period.tv_sec Dparam.__ss_repl_period.tv_nsec Dparam.__ss_init_budget.tv_sec Dparam.__ss_init_budget.tv_nsec Dparam.empty Dparam.empty", "fDret_val fHempty" },
    [90] = { "SCHED_YIELD", "fHempty fHempty", "fHret_val fHempty" },
    [91] = { "SCHED_INFO", "fDpid fDpolicy", "fDret_val Dpriority_min fDpriority_max Dinterval_sec Dinterval_nsec Dpriority_priv" },
    [92] = { "SCHED_CTL", "fHcmd fHempty", "fHempty fHempty" },
    [93] = { "NET_CRED", "fHcoid fPinfo_p", NULL },
    [94] = { "NET_VTID", NULL, "fHret_val fHempty" },
    [95] = { "NET_UNBLOCK", "fHvtid fHempty", "fHret_val fHempty" },
    [96] = { "NET_INFOSCOID", "fHscoid fHinfoscoid", "fHret_val fHempty" },
    [97] = { "NET_SIGNAL_KILL", "Dcred->ruid Dcred->euid Hnd fDpid Dtid fDsigno Hcode Hvalue", "fDstatus fHempty" },
    [98] = { "NET_SPARE1", "fHempty fHempty", "fHempty fHempty" },
    [99] = { "NET_SPARE2", "fHempty fHempty", "fHempty fHempty" },
    [100] = { "MT_CTL", NULL, NULL },
};

// This kernel's calls: what each entry's words are (user/lib/kcalls.c passes them in this order).
const char *const kev_our_kercalls[KEV_OUR_KERCALL_NUM] = {
    [0] = "",                                   // Null
    [1] = "Hcmd Harg1 Harg2 Harg3",             // TraceEvent(cmd, a, b, c)
    [3] = "",                                   // ThreadSelf
    [4] = "",                                   // CondCreate
    [5] = "Hcond",                              // CondDestroy
    [6] = "Dcount",                             // SemCreate
    [9] = "Hsem",                               // SemDestroy
    [11] = "Dcoid Psmsg Usbytes Prmsg Urbytes", // MsgSend
    [13] = "Hrcvid Derr",                       // MsgError
    [14] = "Dchid Pmsg Ubytes Pinfo",           // MsgReceive
    [15] = "Hrcvid Dstatus Pmsg Ubytes",        // MsgReply
    [20] = "Dcoid Rpriority Dcode Hvalue",      // MsgSendPulse
    [33] = "Hcmd Harg1 Harg2 Harg3",            // DTrace
    [34] = "Uslot Pinfo",                       // ThreadInfo
    [35] = "Hflags",                            // ChannelCreate
    [36] = "Dchid",                             // ChannelDestroy
    [38] = "Uslot Pinfo",                       // ProcInfo
    [39] = "Ipid Dchid",                        // ConnectAttach
    [40] = "Dcoid",                             // ConnectDetach
    [44] = "Pname Rpriority Harg",              // ProcSpawn
    [45] = "Dstatus",                           // ProcExit
    [46] = "Pstart Pfunc Parg Pstack Hflags",   // ThreadCreate (the library's start, then its own)
    [47] = "Dstatus",                           // ThreadExit
    [50] = "Ttid Pstatus",                      // ThreadJoin
    [52] = "Dcmd Pdata",                        // ThreadCtl
    [53] = "Uns_lo Uns_hi",                     // ThreadSleep(ns)
    [54] = "Ttid Pname",                        // ThreadName
    [55] = "Qirq Dcoid Dcode",                  // InterruptAttachEvent
    [57] = "Did",                               // InterruptDetach
    [59] = "Qirq Did",                          // InterruptMask
    [60] = "Qirq Did",                          // InterruptUnmask
    [61] = "Qirq",                              // InterruptTrigger
    [62] = "Dpid Pstatus",                      // ProcWait (-1: any child)
    [63] = "",                                  // ProcSelf
    [64] = "Hop Pparam",                        // Semihost
    [65] = "",                                  // ClockTime
    [69] = "",                                  // ClockCycles
    [70] = "Dcoid Dcode Hvalue",                // TimerCreate
    [71] = "Did",                               // TimerDestroy
    [72] = "Did Ufirst_us Uinterval_us",        // TimerSettime
    [75] = "Uns_lo Uns_hi",                     // TimerTimeout(ns)
    [76] = "Pbuf Ulen",                         // DebugWrite
    [77] = "Uwhat Pout",                        // SysInfo
    [78] = "",                                  // MutexCreate
    [79] = "Hmutex",                            // MutexDestroy
    [80] = "Hmutex",                            // MutexLock
    [81] = "Hmutex",                            // MutexUnlock
    [82] = "Hcond Hmutex",                      // CondWait
    [83] = "Hcond Uall",                        // CondSignal (all: CondBroadcast)
    [84] = "Hsem",                              // SemPost
    [85] = "Hsem",                              // SemWait
    [89] = "Ttid Rpriority Dpolicy",            // ThreadSetPrio
    [90] = "",                                  // ThreadYield
    [98] = "Ipid",                              // ProcKill
    [99] = "Dcmd Harg Pname",                   // NameCtl
};

// This kernel's exits whose words are not [result, errno] (ktrace.c's ktrace_kc_raw): the
// result registers as the call left them.
const char *const kev_our_kercall_exits[KEV_OUR_KERCALL_NUM] = {
    [64] = "Dret Hreg1", // Semihost: the host's answer (-1 failed, no errno); r1 is not a result
    [65] = "Wns",        // ClockTime: nanoseconds since boot
    [69] = "Ccycles",    // ClockCycles: the cycle counter
};

// __KER_SYNC_CONDVAR_SIGNAL (83) is both CondSignal and CondBroadcast: its second word, `all`.
const char *kev_kcall_api_name(unsigned call, const uint32_t *arg, unsigned nargs)
{
    return call == 83u && nargs >= 2u && arg[1] ? "CondBroadcast" : NULL;
}
