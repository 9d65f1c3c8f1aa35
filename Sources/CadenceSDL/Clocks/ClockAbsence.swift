import Cadence

/// Why the X Present clock was found not to tick, so the backend paces on
/// the estimate from present returns instead; said in the overlay's clock
/// line and the sample's `display clock:` line (`SDLBackend.clockDescription`).
@_spi(Programs) public enum ClockAbsence: Equatable, Sendable, CustomStringConvertible {
    /// The server answers with no time (UST 0).
    case noTime
    /// The server answers, but the vblank counter stays at this value: it
    /// answered a second question with the counter of the first, or kept it
    /// for half a second. XWayland 24.1 answers every `PresentNotifyMSC` of a
    /// window drawn by software GL at once with MSC 1 and the same time.
    case counterStuck(Int64)
    /// The server has not answered in the first half second.
    case noAnswer

    /// The words after the clock's name.
    public var description: String {
        switch self {
        case .noTime: "X Present gives no time: UST 0"
        case .counterStuck(let counter): "X Present stuck at MSC \(counter)"
        case .noAnswer: "X Present silent for 0.5 s"
        }
    }
}

/// Watches a platform clock's ticks for a clock that does not tick: one
/// that gives no time, a counter answered twice, a counter that stays put
/// while answers keep coming, or no answer at all.
///
/// A clock that ticks answers each question (`PresentNotifyMSC` for target
/// 0, divisor 1, remainder 0) at the next vblank with the next counter: the
/// Present extension moves a target already reached to the next MSC, so no
/// two answers carry the same counter. A counter answered again is proof
/// the clock stands still, seen at the second answer; the watcher waits a
/// few milliseconds for the answers to its first two questions when it
/// opens, so a clock that answers at once (XWayland 24.1) is named absent
/// before the game's first frame (``XPresentClock`` reads them as its mode starts). Until then the frames go out at their targets on
/// the stand-in (``XPresentClock/isProvisional``), each a refresh late by its estimate.
struct TickWatch {
    /// How long a clock may go without a sign of life: half a second, for
    /// a server that does not answer or whose counter moves back and forth.
    static let patience: Nanoseconds = 500_000_000

    /// When the display or its mode began.
    private(set) var since: Nanoseconds
    /// Whether the latest tick came with no time.
    private var latestHadNoTime = false
    /// The highest counter read, and when it was first read.
    private var newest: (counter: Int64, readAt: Nanoseconds)?
    /// Whether the highest counter was answered again.
    private var newestRepeated = false
    /// When the latest tick was read.
    private var lastRead: Nanoseconds?

    /// Watching from `since`.
    init(since: Nanoseconds) { self.since = since }

    /// The watch for a new display or mode from `since`: what the answers
    /// showed of the server's clock holds (a clock that starts ticking shows
    /// it with its next answer, a higher counter); only the wait for a first
    /// answer starts again. The game's window display is read once more just
    /// after the backend starts, a second mode start a few milliseconds after
    /// the first: forgetting there would waste the answers read at the first.
    func restarted(since: Nanoseconds) -> TickWatch {
        var watch = self
        watch.since = since
        return watch
    }

    /// Notes the ticks one read brought at `now`.
    mutating func note(_ ticks: [VblankTick], at now: Nanoseconds) {
        guard let latest = ticks.last else { return }
        latestHadNoTime = latest.time == 0
        lastRead = now
        for tick in ticks {
            if let newest, tick.counter <= newest.counter {
                newestRepeated = newestRepeated || tick.counter == newest.counter
            } else {
                newest = (tick.counter, now)
                newestRepeated = false
            }
        }
    }

    /// Why the clock does not tick as of `now`; nil while it may.
    func absence(at now: Nanoseconds) -> ClockAbsence? {
        if latestHadNoTime { return .noTime }
        guard let newest, let lastRead else { return now - since >= Self.patience ? .noAnswer : nil }
        return newestRepeated || lastRead - newest.readAt >= Self.patience ? .counterStuck(newest.counter) : nil
    }
}
