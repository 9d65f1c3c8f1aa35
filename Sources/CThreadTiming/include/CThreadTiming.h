#ifndef CTHREADTIMING_H
#define CTHREADTIMING_H

/// The two facts about a pacing thread that Swift cannot reach directly:
/// `prctl` is variadic, and the CPU's spin-wait hint is an instruction.

/// `prctl(PR_SET_TIMERSLACK, ns)`: how late the kernel may fire this thread's
/// timers so it can batch wake-ups (50 µs by default). 0 on success, -1 with
/// `errno` set, or -1 where the kernel has no timer slack.
int cadence_set_timer_slack(unsigned long nanoseconds);

/// `prctl(PR_GET_TIMERSLACK)`: this thread's timer slack in nanoseconds, or -1.
long cadence_timer_slack(void);

/// The CPU's spin-wait hint (x86 `pause`, Arm `yield`): saves power and frees
/// the sibling hyperthread while a loop polls a clock; nothing elsewhere.
void cadence_cpu_pause(void);

#endif
