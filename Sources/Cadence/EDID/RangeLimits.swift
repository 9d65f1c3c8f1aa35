/// The base block's Display Range Limits descriptor (tag 0xFD), vertical part.
///
/// Nine monitors in ten carry one, fixed-refresh or not, so it proves nothing
/// about variable refresh by itself; see `EDID/variableRefresh` for when it counts.
@_spi(Programs) public struct RangeLimits: Equatable, Sendable {
    /// The vertical refresh range, with EDID 1.4's +255 Hz offsets applied.
    public let vertical: RefreshRange
    /// Byte 10, the video timing support class: 0x00 default GTF, 0x01 range
    /// limits only, 0x02 secondary GTF, 0x04 CVT.
    public let timingClass: UInt8

    /// The class that means "these are the panel's limits, nothing is derived
    /// from them": the only one that can describe an adaptive-sync range.
    public static let rangeLimitsOnlyClass: UInt8 = 0x01

    /// Reads an 18-byte 0xFD descriptor; nil when a needed byte is missing.
    ///
    /// In EDID 1.4 byte 4 carries offset flags: bit 1 adds 255 Hz to the
    /// maximum, bits 0 and 1 together add 255 Hz to the minimum as well (bit 0
    /// alone is reserved). Earlier versions leave the byte reserved.
    init?(descriptor d: ByteWindow, isVersion1_4: Bool) {
        guard let flags = d[4], let minHz = d.int(at: 5), let maxHz = d.int(at: 6),
              let timingClass = d[10] else { return nil }
        let maxOffset = isVersion1_4 && flags & 0b10 != 0 ? 255 : 0
        let minOffset = isVersion1_4 && flags & 0b11 == 0b11 ? 255 : 0
        vertical = RefreshRange(minHz: minHz + minOffset, maxHz: maxHz + maxOffset)
        self.timingClass = timingClass
    }
}

extension RangeLimits {
    /// Byte 10 in words, as the EDID 1.4 standard names the classes.
    public var timingClassName: String {
        switch timingClass {
        case 0x00: "default GTF"
        case 0x01: "range limits only"
        case 0x02: "secondary GTF"
        case 0x04: "CVT"
        default: "reserved class \(timingClass)"
        }
    }
}

extension EDID {
    /// Why the 0xFD range limits were not taken as the variable refresh range;
    /// nil when they were, or when there are none.
    ///
    /// Almost every monitor has a range-limits descriptor, so the rule trusts
    /// it only for an EDID 1.4 continuous-frequency display whose limits are
    /// "range limits only"; anything else describes which modes it accepts.
    public var rangeLimitsVerdict: String? {
        guard let limits = rangeLimits else { return nil }
        if let untrustworthyReason { return "not VRR: the EDID is not trustworthy (\(untrustworthyReason))" }
        if version < 1 || (version == 1 && revision < 4) {
            return "not VRR: EDID \(versionString) range limits list the modes the display accepts (the rule needs 1.4)"
        }
        if !continuousFrequencyBit {
            return "not VRR: the display does not declare continuous frequency (feature byte 0x18, bit 0)"
        }
        if limits.timingClass != RangeLimits.rangeLimitsOnlyClass {
            return "not VRR: timing class is \(limits.timingClassName), a mode range, not \"range limits only\""
        }
        if let selected = variableRefresh, selected.source != .rangeLimits {
            return "outranked by \(selected.source.rawValue)"
        }
        if variableRefresh == nil { return "not VRR: the range is not a valid variable refresh range" }
        return nil
    }
}
