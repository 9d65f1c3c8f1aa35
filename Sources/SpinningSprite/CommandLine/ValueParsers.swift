import Cadence

/// A flag's value was malformed: names the flag, what was given and the form
/// it accepts. The command turns it into a usage error (exit 64).
struct ValueError: Error, CustomStringConvertible {
    let flag: String
    let value: String
    let form: String

    var description: String { "\(flag): \"\(value)\" is not valid; expected \(form)" }
}

/// Parsers for the plain values of the command line, each rejecting NaN,
/// infinities and out-of-range numbers with a ``ValueError``.
enum ValueParsers {
    /// The highest frame rate any flag accepts.
    static let maximumFPS = 1_000.0

    /// A finite number inside `range`, or a ``ValueError`` describing `form`.
    static func number(_ text: String, flag: String, in range: ClosedRange<Double>, form: String) throws -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw ValueError(flag: flag, value: text, form: form)
        }
        return value
    }

    /// Seconds from the run's start (0 or more), as nanoseconds.
    static func time(_ text: String, flag: String) throws -> Nanoseconds {
        TimeUnit.nanoseconds(seconds: try number(text, flag: flag, in: 0...1e6, form: "seconds, 0 or more"))
    }

    /// `--duration`: seconds, more than 0.
    static func duration(_ text: String, flag: String) throws -> Nanoseconds {
        let seconds = try number(text, flag: flag, in: 0...1e6, form: "a number of seconds above 0, e.g. 10")
        guard seconds > 0 else { throw ValueError(flag: flag, value: text, form: "a number of seconds above 0, e.g. 10") }
        return TimeUnit.nanoseconds(seconds: seconds)
    }

    /// `--frames`: a whole number, 1 or more.
    static func frameCount(_ text: String, flag: String) throws -> Int {
        guard let n = Int(text), n >= 1 else { throw ValueError(flag: flag, value: text, form: "a whole number of frames, 1 or more") }
        return n
    }

    /// `--spin-speed`: degrees per second, any finite value (negative spins the other way).
    static func spinSpeed(_ text: String, flag: String) throws -> Double {
        try number(text, flag: flag, in: -100_000...100_000, form: "degrees per second, e.g. 90")
    }

    /// `--window`: `<W>x<H>` in pixels, each 64…16384.
    static func windowSize(_ text: String, flag: String) throws -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (64...16_384).contains(w), (64...16_384).contains(h) else {
            throw ValueError(flag: flag, value: text, form: "<W>x<H> in pixels, 64 to 16384 each, e.g. 1280x720")
        }
        return (w, h)
    }

    /// A frame rate in Hz, 1…1000.
    static func rate(_ text: String, flag: String) throws -> Double {
        try number(text, flag: flag, in: 1...maximumFPS, form: "a rate from 1 to 1000 Hz")
    }
}
