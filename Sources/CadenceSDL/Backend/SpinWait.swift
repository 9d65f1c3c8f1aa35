import CThreadTiming

/// The CPU's spin-wait hint, for loops that poll a clock.
@_spi(Programs) public enum SpinWait {
    /// The pause hint (x86 `pause`, Arm `yield`): tells the core it is in a
    /// spin-wait, which saves power and frees a sibling hyperthread, without
    /// giving the core up as `sched_yield` may.
    public static func pause() {
        cadence_cpu_pause()
    }
}
