/* ARGS: -l */
/* -l with a script lists the probes its descriptions match */
kercall::Msg[SR]*:, sched:::block-*, proc:::, BEGIN, tick-1s
{
}
