@_spi(Programs) import Cadence

/// A flag's value was malformed: names the flag, what was given and the form
/// it accepts. The command turns it into a usage error (exit 64).
struct ValueError: Error, CustomStringConvertible {
    let flag: String
    let value: String
    let form: String
    /// For a number outside its range, which bound it crossed ("must be at least 1").
    var bound: String?

    var description: String {
        guard let bound else { return "\(flag): \"\(value)\" is not valid; expected \(form)" }
        return "\(flag): \(value) \(bound)" + (form.isEmpty ? "" : "; expected \(form)")
    }
}

/// Parsers for the plain values of the command line, each rejecting NaN,
/// infinities and out-of-range numbers with a ``ValueError``.
enum ValueParsers {
    /// The highest frame rate any flag accepts.
    static let maximumFPS = 1_000.0

    /// One of a fixed set of words in any case (`--latency`, `--vrr`,
    /// `--vsync`, `--video`); the error lists them all.
    static func word<Choice: RawRepresentable & CaseIterable>(_ text: String, flag: String) throws -> Choice
    where Choice.RawValue == String {
        if let choice = Choice(rawValue: text.lowercased()) { return choice }
        let words = Choice.allCases.map(\.rawValue)
        throw ValueError(flag: flag, value: text,
                         form: words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1])
    }

    /// A frame or refresh rate in Hz, 1 to ``maximumFPS``: `--fps`, a simulated
    /// display's rates, a drag of the slider.
    static func rate(_ text: String, flag: String, form: String = "") throws -> Double {
        try number(text, flag: flag, in: 1...maximumFPS, form: form)
    }

    /// Throws a usage error naming the first time in `times` that comes
    /// before the one written ahead of it (or equals it, when `strictly`).
    static func requireIncreasing(_ times: [Nanoseconds], strictly: Bool, flag: String, text: String,
                                  form: String) throws {
        for (earlier, later) in zip(times, times.dropFirst()) where later < earlier || (strictly && later == earlier) {
            let order = later == earlier ? "twice" : "after \(seconds(earlier)) s"
            throw ValueError(flag: flag, value: text, form: form,
                             bound: "lists \(seconds(later)) s \(order): each time must be later than the one before")
        }
    }

    /// Nanoseconds as plain seconds for a message ("1.5").
    private static func seconds(_ time: Nanoseconds) -> String { plain(Double(time) / 1e9) }

    /// A finite number inside `range`, or a ``ValueError`` describing `form`.
    static func number(_ text: String, flag: String, in range: ClosedRange<Double>, form: String) throws -> Double {
        guard let value = Double(text), value.isFinite else { throw ValueError(flag: flag, value: text, form: form) }
        if value < range.lowerBound {
            throw ValueError(flag: flag, value: text, form: form, bound: "must be at least \(plain(range.lowerBound))")
        }
        if value > range.upperBound {
            throw ValueError(flag: flag, value: text, form: form, bound: "must be at most \(plain(range.upperBound))")
        }
        return value
    }

    /// A bound as people write it: `1`, not `1.0`.
    private static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Seconds from the run's start (0 or more), as nanoseconds.
    static func time(_ text: String, flag: String) throws -> Nanoseconds {
        TimeUnit.nanoseconds(seconds: try number(text, flag: flag, in: 0...1e6, form: "seconds, 0 or more"))
    }

    /// `--duration`: seconds, more than 0.
    static func duration(_ text: String, flag: String) throws -> Nanoseconds {
        let form = "a number of seconds above 0, e.g. 10"
        let seconds = try number(text, flag: flag, in: -1e6...1e6, form: form)
        guard seconds > 0 else { throw ValueError(flag: flag, value: text, form: form, bound: "must be more than 0") }
        return TimeUnit.nanoseconds(seconds: seconds)
    }

    /// The most frames `--frames` accepts: a frame lasts at most about 11 s
    /// (10 s of scripted work at 1 FPS), so even the slowest run of this many
    /// frames stays far inside the ±292 years integer nanoseconds can count.
    static let maximumFrames = 100_000_000

    /// `--frames`: a whole number, 1 to ``maximumFrames``.
    static func frameCount(_ text: String, flag: String) throws -> Int {
        let form = "a whole number of frames from 1 to \(maximumFrames)"
        guard let n = Int(text) else {
            guard text.allSatisfy(\.isNumber) || text.hasPrefix("-") && text.dropFirst().allSatisfy(\.isNumber),
                  !text.isEmpty, text != "-" else { throw ValueError(flag: flag, value: text, form: form) }
            throw ValueError(flag: flag, value: text, form: form,
                             bound: text.hasPrefix("-") ? "must be at least 1" : "must be at most \(maximumFrames)")
        }
        guard n >= 1 else { throw ValueError(flag: flag, value: text, form: form, bound: "must be at least 1") }
        guard n <= maximumFrames else {
            throw ValueError(flag: flag, value: text, form: form, bound: "must be at most \(maximumFrames)")
        }
        return n
    }

    /// `--spin-speed`: degrees per second, 0 or more (0 holds the sprite still).
    static func spinSpeed(_ text: String, flag: String) throws -> Double {
        try number(text, flag: flag, in: 0...100_000, form: "degrees per second, e.g. 90")
    }

    /// `--window`: `<W>x<H>` in pixels, at least 640x360 (where the overlay stays readable), at most 16384 each.
    static func windowSize(_ text: String, flag: String) throws -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              w <= 16_384, h <= 16_384 else {
            throw ValueError(flag: flag, value: text, form: "<W>x<H> in pixels, up to 16384 each, e.g. 1280x720")
        }
        guard w >= 640, h >= 360 else {
            throw ValueError(flag: flag, value: text, form: "<W>x<H> in pixels, e.g. 1280x720", bound: "must be at least 640x360")
        }
        return (w, h)
    }
}
