#ifndef CTHREADTIMING_H
#define CTHREADTIMING_H

/// The facts about a pacing thread that Swift cannot reach directly:
/// `prctl` is variadic, the CPU's spin-wait hint is an instruction, and a
/// signal handler must be async-signal-safe C.

/// `prctl(PR_SET_TIMERSLACK, ns)`: how late the kernel may fire this thread's
/// timers so it can batch wake-ups (50 µs by default). 0 on success, -1 with
/// `errno` set, or -1 where the kernel has no timer slack.
int cadence_set_timer_slack(unsigned long nanoseconds);

/// `prctl(PR_GET_TIMERSLACK)`: this thread's timer slack in nanoseconds, or -1.
long cadence_timer_slack(void);

/// The CPU's spin-wait hint (x86 `pause`, Arm `yield`): saves power and frees
/// the sibling hyperthread while a loop polls a clock; nothing elsewhere.
void cadence_cpu_pause(void);

/// The calling thread's kernel id (`gettid`), as `SDL_LinuxSetThreadPriorityAndPolicy` takes it.
long cadence_thread_id(void);

/// Puts the calling thread in `SCHED_FIFO` at `priority` with
/// `SCHED_RESET_ON_FORK` (a child starts in the normal class): 0 on success,
/// -1 with `errno` set where the kernel refuses (no `RLIMIT_RTPRIO`
/// allowance, no `CAP_SYS_NICE`).
int cadence_enter_fifo(int priority);

/// Guards the calling thread in a real-time class against never sleeping:
/// sets `RLIMIT_RTTIME` (CPU time a real-time thread may run without
/// blocking) to `soft_us`/`hard_us` where it is wider, and handles the
/// `SIGXCPU` the kernel sends at the soft limit by putting the guarded
/// threads back in the normal class: a stuck loop is demoted, never left
/// holding the core, never killed. 0 on success, -1 where the limit cannot
/// be set or 16 threads are guarded already.
int cadence_guard_real_time(unsigned long soft_us, unsigned long hard_us);

/// The calling thread left the real-time class: no longer guarded.
void cadence_unguard_real_time(void);

/// Whether the guard demoted a thread since it was last installed.
int cadence_real_time_demoted(void);

#endif
