@_spi(Programs) import Cadence

/// A JSON value with object keys kept in the order written, so the output
/// reads in the documented order; just enough JSON for display-probe.
indirect enum JSON {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// A string, or null when nil.
    static func string(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }

    /// An integer.
    static func int(_ value: Int) -> JSON { .number(Double(value)) }

    /// One line of JSON text.
    var text: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let value):
            value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): JSONString.quoted(value)
        case .array(let items): "[" + items.map(\.text).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.map { JSONString.quoted($0.0) + ": " + $0.1.text }.joined(separator: ", ") + "}"
        }
    }
}
