#include "CThreadTiming.h"

#include <sys/prctl.h>

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
