/// A point or span of time in integer nanoseconds.
///
/// Cadence keeps every time in integers inside so that nothing drifts after hours
/// of frames: a `Double` of seconds loses sub-microsecond precision after about a
/// day, an `Int64` of nanoseconds is exact for 292 years. Seconds as `Double`
/// appear only at the API edge, as with `CADisplayLink`.
///
/// The unit rule, one unit per name:
/// - A time inside Cadence is typed `Nanoseconds` and its name carries no
///   unit: records, plans, clocks, waits (``FrameRecord/delta``,
///   `FrameBackend.waitForEvents(timeout:)`).
/// - At the API edge, ``DisplayLinkFrame`` keeps `CADisplayLink`'s names for
///   `Double` seconds (`timestamp`, `targetTimestamp`, `delta`, `duration`),
///   each with an exact twin whose name ends in `Nanoseconds`.
/// - A time held in any other type names its unit (a program's `workMs`,
///   `roundSeconds`).
/// - Convert only through `TimeUnit`.
public typealias Nanoseconds = Int64

/// Conversions between integer nanoseconds and the `Double` seconds of the API edge.
@_spi(Programs) public enum TimeUnit {
    /// Nanoseconds in one second.
    public static let nanosecondsPerSecond: Nanoseconds = 1_000_000_000

    /// `ns` as seconds, for the API edge and for printing.
    @inlinable
    public static func seconds(_ ns: Nanoseconds) -> Double {
        Double(ns) / 1e9
    }

    /// `ns` as milliseconds, for printing.
    @inlinable
    public static func milliseconds(_ ns: Nanoseconds) -> Double {
        Double(ns) / 1e6
    }

    /// `seconds` rounded to the nearest nanosecond; the way into integer time.
    @inlinable
    public static func nanoseconds(seconds: Double) -> Nanoseconds {
        Nanoseconds((seconds * 1e9).rounded())
    }

    /// `ms` milliseconds rounded to the nearest nanosecond.
    @inlinable
    public static func nanoseconds(milliseconds ms: Double) -> Nanoseconds {
        Nanoseconds((ms * 1e6).rounded())
    }
}
