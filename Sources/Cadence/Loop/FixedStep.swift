/// A fixed-step simulation clock advanced to glass time: the loop every
/// game-loop text teaches (a fixed update rate, drawing interpolated between
/// the last two states), driven by each frame's target timestamp.
///
/// Physics and gameplay step at one fixed rate, whatever the display does, so
/// they are deterministic and stable; each frame then draws the world between
/// the two newest states. The accumulator is advanced to when the frame will
/// be *seen* (``DisplayLinkFrame/targetTimestampNanoseconds``), not to when
/// the frame started, so the drawn motion is a straight line on the glass at
/// every frame rate, across cap changes and hitches.
///
/// State `k` is the world at `origin + k × step`, where the origin is the
/// first frame's target. The step from state `k − 1` to `k` runs as soon as
/// the glass reaches `origin + (k − 1) × step`, so the two newest states always
/// bracket the target: drawing `previous + (current − previous) × alpha`
/// shows the world exactly at the target, with no step of lag. The number of
/// steps due at glass time `g` is `floor((g − origin + tolerance) / step) + 1`,
/// computed from the origin in exact integer arithmetic every frame, so no
/// rounding accumulates however long the game runs. The small tolerance
/// (``toleranceNanoseconds``) is there because targets are vblanks rounded to
/// whole nanoseconds: at 60 updates a second on a 60 Hz display, the vblank
/// 2/60 s in lies 0.33 ns *before* the second step's start, and without it
/// frames would run 1, 0, 2, 1, 0, 2 updates instead of 1 each.
///
/// Catch-up is bounded: a frame runs at most ``maximumStepsPerFrame`` steps,
/// and any more that are due are dropped (the world falls behind the glass by
/// whole steps) and counted in ``stepsDropped``, so a long hitch cannot make
/// the next frame slower still (the spiral of death).
///
/// Time the game did not live is not simulated: when the link hands a frame a
/// delta shorter than the gap between targets (after a pause, or a clock jump
/// beyond `DisplayLink.maximumDelta`), the difference moves the origin
/// forward instead of becoming steps.
public struct FixedStep: Equatable, Sendable {
    /// The step is `stepDenominator / stepNumerator` nanoseconds, kept as a
    /// reduced fraction so that rates like 60 per second are exact.
    private let stepNumerator: Int64
    private let stepDenominator: Int64

    /// The most steps one frame runs; the rest are dropped.
    public let maximumStepsPerFrame: Int
    /// How far ahead of the glass a step may start and still count as due
    /// (1 µs by default): rounding of targets, not a real lead. The drawn
    /// state stays exact, since ``alpha`` then dips just below 0.
    public let toleranceNanoseconds: Nanoseconds

    /// Glass time of state 0, moved forward by time the game did not live;
    /// nil before the first frame.
    private var origin: Nanoseconds?
    private var lastTarget: Nanoseconds?

    /// Steps run so far (the updates the game made).
    public private(set) var stepsRun: Int64 = 0
    /// Steps that were due but dropped by the catch-up bound.
    public private(set) var stepsDropped: Int64 = 0
    /// Where the last target lies between the two newest states: 0 draws the
    /// previous state, values toward 1 the current one. It lies in [0, 1)
    /// but for a step taken up to the tolerance early, when it is a hair
    /// below 0 and the blend extrapolates back exactly to the target.
    public private(set) var alpha: Double = 0

    /// `stepsPerSecond` updates a second (60 is exact, not 16.666… ms rounded).
    public init(stepsPerSecond: Int, maximumStepsPerFrame: Int = 8,
                toleranceNanoseconds: Nanoseconds = 1_000) {
        precondition(stepsPerSecond > 0, "the update rate must be positive")
        self.init(numerator: Int64(stepsPerSecond), denominator: TimeUnit.nanosecondsPerSecond,
                  maximumStepsPerFrame: maximumStepsPerFrame, toleranceNanoseconds: toleranceNanoseconds)
    }

    /// One update every `stepNanoseconds`.
    public init(stepNanoseconds: Nanoseconds, maximumStepsPerFrame: Int = 8,
                toleranceNanoseconds: Nanoseconds = 1_000) {
        precondition(stepNanoseconds > 0, "the step must be positive")
        self.init(numerator: 1, denominator: stepNanoseconds,
                  maximumStepsPerFrame: maximumStepsPerFrame, toleranceNanoseconds: toleranceNanoseconds)
    }

    private init(numerator: Int64, denominator: Int64, maximumStepsPerFrame: Int,
                 toleranceNanoseconds: Nanoseconds) {
        precondition(maximumStepsPerFrame >= 1, "a frame must be allowed at least one step")
        let divisor = greatestCommonDivisor(numerator, denominator)
        stepNumerator = numerator / divisor
        stepDenominator = denominator / divisor
        self.maximumStepsPerFrame = maximumStepsPerFrame
        precondition(toleranceNanoseconds >= 0 && toleranceNanoseconds * stepNumerator < stepDenominator,
                     "the tolerance must be shorter than a step")
        self.toleranceNanoseconds = toleranceNanoseconds
    }

    /// The step in seconds: the `dt` each update advances the world by.
    public var step: Double { Double(stepDenominator) / Double(stepNumerator) / 1e9 }

    /// Advances to `frame`'s target, honouring its delta (time not lived is
    /// skipped, not simulated); returns how many updates to run now.
    public mutating func advance(to frame: DisplayLinkFrame) -> Int {
        advance(toTargetNanoseconds: frame.targetTimestampNanoseconds, livedNanoseconds: frame.deltaNanoseconds)
    }

    /// Advances to glass time `target`; returns how many updates to run now.
    ///
    /// - Parameters:
    ///   - target: the frame's target timestamp, in ns.
    ///   - lived: how much of the time since the previous target the game
    ///     lived through (the link's delta); nil means all of it.
    public mutating func advance(toTargetNanoseconds target: Nanoseconds,
                                 livedNanoseconds lived: Nanoseconds? = nil) -> Int {
        if let lastTarget, let origin {
            let unlived = max(0, target - lastTarget - (lived ?? target - lastTarget))
            self.origin = origin + unlived
        } else {
            origin = target
        }
        lastTarget = target
        let elapsed = max(0, target - origin!)
        let (completed, remainder) = completedSteps(in: elapsed + toleranceNanoseconds)
        let due = completed + 1
        let pending = max(0, due - stepsRun - stepsDropped)
        let run = min(pending, Int64(maximumStepsPerFrame))
        stepsRun += run
        stepsDropped += pending - run
        // (elapsed × n − completed × d) / d: the remainder less the tolerance.
        alpha = Double(remainder - toleranceNanoseconds * stepNumerator) / Double(stepDenominator)
        return Int(run)
    }

    /// Whole steps in `elapsed` and what is left over, in units of
    /// 1 / `stepNumerator` ns: floor(elapsed × n / d), in full width so no
    /// product overflows.
    private func completedSteps(in elapsed: Nanoseconds) -> (Int64, Int64) {
        let product = stepNumerator.multipliedFullWidth(by: elapsed)
        return stepDenominator.dividingFullWidth(product)
    }
}
