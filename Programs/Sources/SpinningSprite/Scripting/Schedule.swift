@_spi(Programs) import Cadence

/// A value that changes at given times: `"<sec>:<value>,..."` on the command
/// line (`--fps-schedule`, `--refresh-schedule`, `--work-schedule`, `--hitch`).
struct Schedule<Value> {
    /// The changes, earliest first.
    let entries: [(at: Nanoseconds, value: Value)]

    /// A schedule from its entries, in any order.
    init(entries: [(at: Nanoseconds, value: Value)]) {
        self.entries = entries.sorted { $0.at < $1.at }
    }

    /// The value in force at `time`: the last entry at or before it, or nil before the first.
    func value(at time: Nanoseconds) -> Value? {
        entries.last { $0.at <= time }?.value
    }

    /// Splits `text` into `(seconds, value text)` pairs and parses each value.
    /// The times must increase: a schedule is read as written, and one whose
    /// times go back (or repeat, two values at once) was mistyped.
    static func parse(_ text: String, flag: String, form: String,
                      value: (String) throws -> Value) throws -> Schedule {
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        let entries = try items.map { item -> (at: Nanoseconds, value: Value) in
            let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw ValueError(flag: flag, value: String(item), form: form) }
            do {
                return (try ValueParsers.time(parts[0], flag: flag), try value(parts[1]))
            } catch is ValueError {
                throw ValueError(flag: flag, value: String(item), form: form)
            }
        }
        try ValueParsers.requireIncreasing(entries.map(\.at), strictly: true, flag: flag, text: text, form: form)
        return Schedule(entries: entries)
    }
}

extension Schedule where Value == FrameRateLimit {
    /// `--fps-schedule "2:30,4:144,6:adaptive"`.
    static func parseFPS(_ text: String, flag: String) throws -> Schedule {
        try parse(text, flag: flag, form: "<sec>:<fps>,... with fps 0, 1 to 1000, adaptive or uncapped, e.g. \"2:30,4:adaptive\"") {
            try FrameRateLimit.parse($0, flag: flag)
        }
    }
}

extension Schedule where Value == SimulatedDisplay.Panel {
    /// `--refresh-schedule "3:fixed:60,6:vrr:48-144"`.
    static func parseDisplays(_ text: String, flag: String) throws -> Schedule {
        try parse(text, flag: flag, form: "<sec>:<display>,... with display \(SimulatedDisplay.Panel.form)") {
            try SimulatedDisplay.Panel.parse($0, flag: flag)
        }
    }
}

extension Schedule where Value == Nanoseconds {
    /// `--work-schedule "0:4,5:11"` or `--hitch "1.5:50"`: milliseconds (0 allowed
    /// only where `allowZero`), up to 10 seconds.
    static func parseMilliseconds(_ text: String, flag: String, allowZero: Bool) throws -> Schedule {
        let lowest = allowZero ? "0" : "more than 0"
        return try parse(text, flag: flag, form: "<sec>:<ms>,... with ms \(lowest) up to 10000, e.g. \"1.5:50\"") {
            let ms = try ValueParsers.number($0, flag: flag, in: 0...10_000, form: "")
            guard allowZero || ms > 0 else { throw ValueError(flag: flag, value: $0, form: "") }
            return TimeUnit.nanoseconds(milliseconds: ms)
        }
    }
}
