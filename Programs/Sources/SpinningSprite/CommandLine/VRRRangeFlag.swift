@_spi(Programs) import Cadence

extension VRROverride {
    /// Parses `--vrr-range <min>-<max>` (1 ≤ min < max ≤ 1023, the bounds an EDID range may have).
    static func parseRange(_ text: String, flag: String) throws -> ClosedRange<FrameRate> {
        guard let range = VRROverride.range(parsing: text) else {
            throw ValueError(flag: flag, value: text, form: "<min>-<max> in Hz with 1 ≤ min < max ≤ 1023, e.g. 48-144")
        }
        return range
    }
}
