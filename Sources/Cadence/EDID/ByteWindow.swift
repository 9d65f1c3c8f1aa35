/// A bounds-checked view of part of a byte array.
///
/// EDIDs come from monitors, files and users, and their length fields routinely
/// disagree with the bytes actually present. Every read in the decoder goes
/// through this view, so a field past the end is `nil` instead of a trap.
struct ByteWindow {
    private let bytes: [UInt8]
    private let start: Int
    /// How many bytes the window covers (never more than the array holds).
    let count: Int

    /// A window of up to `count` bytes of `bytes` from `start`, clamped to the array.
    init(_ bytes: [UInt8], start: Int = 0, count: Int? = nil) {
        let clampedStart = min(max(0, start), bytes.count)
        let available = bytes.count - clampedStart
        self.bytes = bytes
        self.start = clampedStart
        self.count = min(max(0, count ?? available), available)
    }

    /// The byte at `offset` from the window's start, or nil when outside it.
    subscript(offset: Int) -> UInt8? {
        offset >= 0 && offset < count ? bytes[start + offset] : nil
    }

    /// The byte at `offset` as an `Int`, or nil when outside the window.
    func int(at offset: Int) -> Int? {
        self[offset].map(Int.init)
    }

    /// A window inside this one, clamped to this one's end.
    func window(from offset: Int, count length: Int) -> ByteWindow {
        let from = min(max(0, offset), count)
        return ByteWindow(bytes, start: start + from, count: min(max(0, length), count - from))
    }

    /// The window's bytes as an array.
    var array: [UInt8] { Array(bytes[start..<start + count]) }
}
