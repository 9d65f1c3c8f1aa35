/// A range of vertical refresh rates in whole hertz, as EDID blocks state them.
///
/// EDID fields are integers, so the decoder keeps them exact; the VRR policy
/// turns them into ``FrameRate``s for the display link.
@_spi(Programs) public struct RefreshRange: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The lowest refresh rate in Hz.
    public let minHz: Int
    /// The highest refresh rate in Hz.
    public let maxHz: Int

    /// A range as read; it may be nonsense (a min above its max), which
    /// ``isValidVariableRefresh`` reports rather than this initialiser rejecting.
    public init(minHz: Int, maxHz: Int) {
        self.minHz = minHz
        self.maxHz = maxHz
    }

    /// Whether this range can be a real variable-refresh range: min ≥ 1 Hz,
    /// max ≤ 1023 Hz (the largest 10-bit field) and more than 10 Hz wide.
    ///
    /// Monitors ship placeholder blocks (zeros, min = max, a 2 Hz range); those
    /// must fall through to the next source instead of being believed.
    public var isValidVariableRefresh: Bool {
        minHz >= 1 && maxHz <= 1023 && maxHz - minHz > 10
    }

    /// `"48–144 Hz"`.
    public var description: String { "\(minHz)–\(maxHz) Hz" }
}
