/// Decides from the first presents with vsync on whether vsync really paces
/// them: a present that waits for the display takes a good part of a refresh
/// on average, while one where vsync is "on" but does nothing (Xvfb, the
/// offscreen driver, some compositors) returns at once every time.
///
/// Where the platform holds each present until the compositor has shown the
/// one before (SDL's Wayland driver waits for the previous frame's callback),
/// vsync paces presents even when they return at once: a loop slower than the
/// compositor, capped or presenting just before each repaint, finds that
/// callback already come. Presents there are never taken for unpaced, which
/// would hand the loop to the timer at any rate the compositor cannot show.
package struct PresentBlockingCheck: Sendable {
    /// How many presents are watched before deciding.
    public static let sampleCount = 16

    /// Whether the platform holds presents to the compositor's frame callbacks.
    public let throttledByCompositor: Bool
    private var blockingTimes: [Nanoseconds] = []
    /// Whether presents wait for the display: true until decided otherwise.
    public private(set) var presentsBlock = true

    public init(throttledByCompositor: Bool) {
        self.throttledByCompositor = throttledByCompositor
    }

    /// Notes a present that blocked for `blocked` on a display of refresh
    /// `period`; after ``sampleCount`` of them, decides: they wait when their
    /// median is over an eighth of a refresh, or the compositor throttles them.
    public mutating func note(blocked: Nanoseconds, period: Nanoseconds) {
        guard blockingTimes.count < Self.sampleCount else { return }
        blockingTimes.append(blocked)
        if blockingTimes.count == Self.sampleCount {
            let sorted = blockingTimes.sorted()
            presentsBlock = throttledByCompositor || sorted[sorted.count / 2] > period / 8
        }
    }
}
