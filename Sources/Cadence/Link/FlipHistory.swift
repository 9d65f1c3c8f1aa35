/// The flips of the last two new frames: what the display link plans from,
/// and what a variable-refresh driver spaces its repeats by.
package struct FlipHistory: Equatable, Sendable {
    /// When the newest frame reached the glass; nil before the first.
    package private(set) var last: Nanoseconds?
    /// When the frame before it did.
    package private(set) var previous: Nanoseconds?

    /// No flips yet; also what a loop resuming from a pause starts from.
    package init(last: Nanoseconds? = nil, previous: Nanoseconds? = nil) {
        self.last = last
        self.previous = previous
    }

    /// How long the frame before the newest stayed on the glass.
    package var lastDuration: Nanoseconds? {
        guard let last, let previous else { return nil }
        return last - previous
    }

    /// A new frame reached the glass at `flip`.
    package mutating func record(_ flip: Nanoseconds) {
        previous = last
        last = flip
    }
}
