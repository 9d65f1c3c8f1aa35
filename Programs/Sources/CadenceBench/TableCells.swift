@_spi(Programs) import Cadence

/// `ns` as milliseconds to the microsecond, right-aligned in `width` columns
/// (0: as wide as it is), for the benches' tables.
func milliseconds(_ ns: Nanoseconds, width: Int = 0) -> String {
    rightAligned(String(format: "%.3f ms", TimeUnit.milliseconds(ns)), width)
}

/// `text` right-aligned in `width` columns.
func rightAligned(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}
