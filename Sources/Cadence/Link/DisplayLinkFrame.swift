/// What the display link hands each callback, with `CADisplayLink`'s meanings.
///
/// Drive animation from ``targetTimestamp`` (or the sum of ``delta``s): it is
/// when this frame will be on the glass, so motion stays a straight line when
/// the rate changes. ``timestamp`` is when the *previous* frame appeared;
/// animating from it lags by one interval, and the lag changes with the rate,
/// which is exactly the hitch Cadence exists to remove.
public struct DisplayLinkFrame: Equatable, Sendable {
    /// The callback's index, from 0 (restarting at 0 never; pauses keep counting).
    public let index: Int
    /// The vblank at which the previous frame was shown, in ns.
    public let timestampNanoseconds: Nanoseconds
    /// When this frame will be shown, in ns: its slot plus ``pathLatency``.
    public let targetTimestampNanoseconds: Nanoseconds
    /// How much later than its slot (the vblank it is presented for, or the
    /// moment a timer sends it) this path shows a frame, as the loop learned
    /// from the platform's reports (see `PathLatency`); 0 where the path
    /// shows it at its slot. The presenter presents for the slot.
    public internal(set) var pathLatency: Nanoseconds = 0
    /// The slot the frame is presented for: its target less the path's latency.
    package var slotNanoseconds: Nanoseconds { targetTimestampNanoseconds - pathLatency }
    /// This target minus the previous callback's target, in ns; after a pause,
    /// or for the first callback, one frame interval. Clamped to the link's
    /// `DisplayLink.maximumDelta` after a clock anomaly (suspend, debugger).
    public let deltaNanoseconds: Nanoseconds
    /// The link's rate and how it lands on the display.
    public let effectiveRate: EffectiveRate
    /// The display's timing this frame was planned against.
    @_spi(Programs) public let timing: DisplayTiming
    /// The slots this frame's rate steps through: where a late frame is held.
    package let cadence: FrameCadence
    /// How many of the link's frames passed with no callback (a long frame).
    public let skippedFrames: Int
    /// Whether ``deltaNanoseconds`` was clamped: the clock jumped (suspend,
    /// debugger stop) and the link resynchronised instead of catching up.
    public let deltaWasClamped: Bool
    /// Why the link runs at ``effectiveRate``: the request, the display, the
    /// present path or the game's work.
    public let rateReason: RateReason
    /// Whether anything paces this frame. False only when the link is
    /// uncapped with no vsync (see `DisplayLink.isUncapped`): then the
    /// frame is presented as soon as its work ends, its target is the
    /// callback's start, and it has no slot to be late for.
    public internal(set) var isPaced = true
    /// The rate no two new frames may exceed, which the presenter holds
    /// them to (see `CapSpacing`): the preferred range's maximum where the
    /// link's rate honours it. Nil when the range has no maximum, when none
    /// of the display's rates lies inside the range (then the link runs the
    /// nearest one, as `CAFrameRateRange` does), and with variable refresh in
    /// effect: there the panel refreshes when a frame is presented, on time
    /// by construction with no clock estimate to be wrong, and a frame late
    /// on a narrow range is shown as soon as the panel is free, which may be
    /// less than an interval before the next on-time one.
    public internal(set) var cap: FrameRate?

    /// The previous frame's vblank in seconds (`CADisplayLink.timestamp`).
    public var timestamp: Double { TimeUnit.seconds(timestampNanoseconds) }
    /// When this frame will be shown, in seconds (`targetTimestamp`).
    public var targetTimestamp: Double { TimeUnit.seconds(targetTimestampNanoseconds) }
    /// The time to advance the game by this frame, in seconds.
    public var delta: Double { TimeUnit.seconds(deltaNanoseconds) }
    /// The display's shortest frame interval in seconds (`duration`).
    public var duration: Double { TimeUnit.seconds(timing.minimumInterval) }
    /// The frame interval in effect (1 / effective rate), in seconds.
    public var frameInterval: Double { TimeUnit.seconds(effectiveRate.rate.period) }
}
