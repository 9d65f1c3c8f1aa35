#define _GNU_SOURCE
#include "CThreadTiming.h"

#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int cadence_set_timer_slack(unsigned long nanoseconds) {
#ifdef PR_SET_TIMERSLACK
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
#else
    (void)nanoseconds;
    return -1;
#endif
}

long cadence_timer_slack(void) {
#ifdef PR_GET_TIMERSLACK
    return (long)prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
#else
    return -1;
#endif
}

void cadence_cpu_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

long cadence_thread_id(void) {
    return (long)syscall(SYS_gettid);
}

int cadence_enter_fifo(int priority) {
    struct sched_param parameters;
    memset(&parameters, 0, sizeof parameters);
    parameters.sched_priority = priority;
    return sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &parameters);
}

/// The guarded threads (0: a free slot), and whether the guard demoted them.
#define GUARDED_THREADS 16
static volatile pid_t guarded[GUARDED_THREADS];
static volatile sig_atomic_t demoted = 0;

/// The kernel sends RLIMIT_RTTIME's SIGXCPU to the process, and any thread
/// may run the handler, so it puts every guarded thread back in the normal
/// class (a game has one: its loop's). The flag is raised before the first
/// thread is moved: the moved thread may run on another core at once and ask
/// why, while this one is preempted between its system call and its next
/// store (seen on a loaded machine); it is lowered again if none was moved.
static void demote_guarded_threads(int signal_number) {
    (void)signal_number;
    struct sched_param parameters;
    memset(&parameters, 0, sizeof parameters);
    sig_atomic_t before = demoted, moved = 0;
    demoted = 1;
    for (int i = 0; i < GUARDED_THREADS; i++) {
        // A system call: safe in a signal handler.
        if (guarded[i] != 0 && sched_setscheduler(guarded[i], SCHED_OTHER, &parameters) == 0) moved = 1;
    }
    if (!moved) demoted = before;
}

int cadence_guard_real_time(unsigned long soft_us, unsigned long hard_us) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_RTTIME, &limit) != 0) return -1;
    if (limit.rlim_max == RLIM_INFINITY || limit.rlim_max > hard_us) limit.rlim_max = hard_us;
    if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > soft_us) limit.rlim_cur = soft_us;
    if (limit.rlim_cur > limit.rlim_max) limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_RTTIME, &limit) != 0) return -1;
    pid_t self = (pid_t)syscall(SYS_gettid);
    int slot = -1;
    for (int i = 0; i < GUARDED_THREADS; i++) {
        if (guarded[i] == self) slot = i;
        if (slot < 0 && guarded[i] == 0) slot = i;
    }
    if (slot < 0) return -1;
    guarded[slot] = self;
    demoted = 0;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = demote_guarded_threads;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(SIGXCPU, &action, NULL);
}

int cadence_real_time_demoted(void) {
    return demoted;
}

void cadence_unguard_real_time(void) {
    pid_t self = (pid_t)syscall(SYS_gettid);
    for (int i = 0; i < GUARDED_THREADS; i++) if (guarded[i] == self) guarded[i] = 0;
}
