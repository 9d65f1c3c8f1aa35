/// The frame loop's backend for a ``SimulatedDisplay`` on a ``VirtualClock``.
///
/// Waiting and work move virtual time; a present blocks until its frame is on
/// the glass, as a vsync'd present does. Runs as fast as the CPU allows.
public final class SimulatedBackend: FrameBackend, ScriptedWork {
    /// The simulated monitor.
    public let display: SimulatedDisplay
    private let virtualClock: VirtualClock
    /// The display's vsync before the loop went uncapped, given back after.
    private var vsyncBeforeUncapped: Bool?

    /// A backend for `display`, on `clock`.
    public init(display: SimulatedDisplay, clock: VirtualClock = VirtualClock()) {
        self.display = display
        self.virtualClock = clock
    }

    /// The virtual clock.
    public var clock: FrameClock { virtualClock }

    /// The display's timing at the current virtual time.
    public func currentTiming() -> DisplayTiming {
        display.timing(at: virtualClock.now)
    }

    /// Advances virtual time by `duration`.
    public func doWork(_ duration: Nanoseconds) {
        virtualClock.advance(by: max(0, duration))
    }

    /// Jumps to `deadline` (a virtual wait is exact).
    public func wait(until deadline: Nanoseconds) {
        virtualClock.sleep(until: deadline)
    }

    /// Turns the simulated display's vsync off while uncapped, as a driver
    /// would, and back to what it was after.
    public func uncappedChanged(to uncapped: Bool) {
        if uncapped {
            vsyncBeforeUncapped = display.vsync
            display.vsync = false
        } else if let vsync = vsyncBeforeUncapped {
            display.vsync = vsync
            vsyncBeforeUncapped = nil
        }
    }

    /// Presents now; returns once the frame is on the glass.
    public func present() -> PresentOutcome {
        let shown = display.present(at: virtualClock.now)
        virtualClock.sleep(until: shown)
        return PresentOutcome(shownAt: shown, tracedAt: shown)
    }
}
