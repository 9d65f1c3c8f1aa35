/// A deterministic model of a monitor, on a virtual clock, for tests and `--simulate-display`.
///
/// - Fixed refresh R: vblanks at `origin + k/R`; a present shows at the first
///   vblank at or after it, one new frame per vblank (a present arriving
///   while a frame is already queued for that vblank waits for the next one).
/// - Variable refresh [min, max], active only when the window is fullscreen and
///   VRR is allowed: a frame shows when presented, unless a scan-out (`1/max`
///   long) is under way, when it shows as that ends. Below the range the
///   driver repeats the frame by itself (`LowFramerateCompensation`):
///   spaced from how long the previous frame stayed on the glass, and every
///   `1/min` when it has no such prediction. Not active (windowed), the panel
///   behaves as a fixed display at its maximum rate.
/// - Vsync off: every present shows at once (tearing), or behind a compositor
///   that repaints on demand (``repaintOnDemand``) a set time after it.
/// - The mode can change at scheduled times; the switch lands on a vblank.
/// It draws nothing; it only says when each frame reached the glass.
@_spi(Programs) public final class SimulatedDisplay {
    /// What a display's panel can do.
    public enum Panel: Equatable, Sendable {
        /// A fixed refresh rate.
        case fixed(FrameRate)
        /// A variable refresh range.
        case variable(minimum: FrameRate, maximum: FrameRate)
        /// A refresh rate the system cannot report (SDL says 0 Hz): with no grid
        /// to snap to, frames show when presented and the link paces by timer.
        case unknown

        /// The rate of its fixed mode: the refresh, or the maximum of a VRR range
        /// (what a VRR panel runs at in a window, where variable refresh is off);
        /// nil when unknown.
        public var modeRate: FrameRate? {
            switch self {
            case .fixed(let r): r
            case .variable(_, let maximum): maximum
            case .unknown: nil
            }
        }
    }

    /// The grid kept while the rate is unknown (it is not used for pacing).
    private static let unknownGridRate = FrameRate(numerator: 60)

    /// Whether presents wait for vblank; off means every present shows at once.
    public var vsync: Bool
    /// Whether the game's window is fullscreen (required for VRR to take effect).
    public var isFullscreen: Bool
    /// Whether variable refresh may be used (the user turning it off says no).
    public var allowsVariableRefresh: Bool
    /// How long before each vblank a compositor in front of the panel
    /// composites the frame it shows there (0: none, a present in the refresh
    /// before a vblank is shown on it). Mutter dispatches its frame clock up to
    /// a whole refresh before the vblank (by default 7/8 of one while it has
    /// no render-time measurements): a fixed-refresh frame presented after
    /// that is shown a vblank later.
    public var compositeLead: Nanoseconds = 0
    /// A compositor in front of a display without vblanks (vsync off, or a
    /// rate it cannot report) that repaints when a frame arrives, as Mutter's
    /// headless virtual monitor does: it shows a frame `delay` after the
    /// present (its rendering), and no sooner than `interval` after the frame
    /// before (its frame clock's refresh). Nil: a frame shows when presented.
    public var repaintOnDemand: (delay: Nanoseconds, interval: Nanoseconds)?
    /// A compositor in front of a display without vblanks that repaints on
    /// its own timer while frames come, as Weston's headless output does: a
    /// frame committed at least `window` (its repaint window) before the
    /// timer's next tick after the last frame is shown on that tick; one
    /// committed later finds the timer idle, which restarts at the commit and
    /// shows it `interval` after it. Takes precedence over ``repaintOnDemand``.
    public var repaintTimer: (interval: Nanoseconds, window: Nanoseconds)?

    /// The panel now (after any scheduled changes that have happened).
    public private(set) var panel: Panel
    private var grid: VsyncGrid
    private var pendingChanges: [(at: Nanoseconds, panel: Panel)]
    private var lastFlip: Nanoseconds?
    /// The new frames' flips while variable refresh is in effect: what the driver spaces repeats by.
    private var flips = FlipHistory()
    /// Whether variable refresh was in effect at the last present: a driver
    /// starts its spacing afresh when it comes into effect (vsync turned back
    /// on, fullscreen entered), knowing only the last flip.
    private var variableRefreshWasActive = false

    /// One flip of the panel: a new frame, or the driver's repeat of one.
    public struct Flip: Equatable, Sendable {
        /// When it started.
        public let at: Nanoseconds
        /// Whether it showed the previous frame again.
        public let isRepeat: Bool
    }
    /// Told of every flip, repeats included, in order (a repeat as soon as
    /// the next present shows it happened); for tests that check what the
    /// panel really did.
    public var onFlip: ((Flip) -> Void)?

    /// A display whose vblank grid starts at `origin`, with mode changes to
    /// make at given times (in any order).
    public init(panel: Panel, vsync: Bool = true, fullscreen: Bool = false, allowsVariableRefresh: Bool = true,
                origin: Nanoseconds = 0, changes: [(at: Nanoseconds, panel: Panel)] = []) {
        self.panel = panel
        self.vsync = vsync
        self.isFullscreen = fullscreen
        self.allowsVariableRefresh = allowsVariableRefresh
        grid = VsyncGrid(origin: origin, rate: panel.modeRate ?? Self.unknownGridRate)
        pendingChanges = changes.sorted { $0.at < $1.at }
    }

    /// The vblank grid of the fixed mode: a VRR panel's while variable refresh is off.
    public var fixedGrid: VsyncGrid { grid }

    /// Whether variable refresh is in effect.
    public var isVariableRefreshActive: Bool {
        if case .variable = panel { return vsync && isFullscreen && allowsVariableRefresh }
        return false
    }

    /// What the display link sees at time `now`.
    public func timing(at now: Nanoseconds) -> DisplayTiming {
        applyChanges(upTo: now)
        if !vsync || panel == .unknown { return .unsynced(reported: panel.modeRate) }
        if isVariableRefreshActive, case .variable(let minimum, let maximum) = panel {
            return .variable(minimum: minimum, maximum: maximum)
        }
        return .fixed(grid)
    }

    /// Presents a frame at `time`; returns when it reaches the glass.
    public func present(at time: Nanoseconds) -> Nanoseconds {
        applyChanges(upTo: time)
        let shown: Nanoseconds
        if !vsync || panel == .unknown {
            if let timer = repaintTimer {
                if let last = lastFlip, time <= last + timer.interval - timer.window {
                    shown = last + timer.interval
                } else {
                    shown = time + timer.interval
                }
            } else if let compositor = repaintOnDemand {
                shown = max(time + compositor.delay, lastFlip.map { $0 + compositor.interval } ?? time)
            } else {
                shown = time
            }
        } else if isVariableRefreshActive, case .variable(let minimum, let maximum) = panel {
            if !variableRefreshWasActive { flips = FlipHistory(last: lastFlip) }
            let driver = LowFramerateCompensation(minimum: minimum, maximum: maximum)
            let hold = driver.hold(after: flips)
            shown = hold?.shownAt(presentedAt: time) ?? time
            for repeated in hold?.repeats(before: shown) ?? [] { onFlip?(Flip(at: repeated, isRepeat: true)) }
        } else {
            var k = grid.index(atOrAfter: time + compositeLead)
            if let last = lastFlip, grid.time(at: k) <= last { k = grid.index(after: last) }
            shown = grid.time(at: k)
        }
        variableRefreshWasActive = isVariableRefreshActive
        lastFlip = shown
        flips.record(shown)
        onFlip?(Flip(at: shown, isRepeat: false))
        return shown
    }

    private func applyChanges(upTo now: Nanoseconds) {
        while let change = pendingChanges.first, change.at <= now {
            pendingChanges.removeFirst()
            // The new mode's vblanks start at the old grid's first vblank after the switch.
            let origin = grid.time(at: grid.index(atOrAfter: change.at))
            // A driver spaces repeats by durations seen on this panel only.
            if change.panel != panel { flips = FlipHistory(last: lastFlip) }
            panel = change.panel
            grid = VsyncGrid(origin: origin, rate: panel.modeRate ?? grid.rate)
        }
    }
}
