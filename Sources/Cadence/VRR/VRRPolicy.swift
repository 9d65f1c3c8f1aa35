/// Decides, from a display's `VRRFacts`, whether it refreshes variably and
/// whether variable refresh is requested for the game's window (whether it
/// is in effect is measured: ``VariableRefreshTracker``).
///
/// The order of trust: the user's override turning it on over everything;
/// then the kernel driver's `vrr_capable` (it knows the link and the
/// monitor's settings); then the EDID alone, at lower confidence. The range
/// comes from the user's override range, else the EDID. VRR is requested only
/// on a VRR display, in a fullscreen window (on X11 one whose
/// `_VARIABLE_REFRESH` is 1), turned off neither by the user nor by
/// `__GL_VRR_ALLOWED=0`. Pure: same facts, same answer.
@_spi(Programs) public enum VRRPolicy {
    /// The decision for one display.
    public static func decide(_ facts: VRRFacts) -> VRRDecision {
        var notes: [String] = []
        var (isVariable, refreshSource, confidence) = capability(facts, notes: &notes)

        let range = variableRange(facts)
        if isVariable, range == nil {
            isVariable = false
            let missing = VRRUnknownReason.noRefreshRange(
                "\(refreshSource) says variable refresh, but no EDID block gives a range; an override range can give it")
            confidence = .unknown(confidence.reasons + [missing])
        }

        var inactive: [VRRInactiveReason] = []
        let minimumRate: FrameRate?, maximumRate: FrameRate?, rateSource: VRRFactSource?
        if isVariable, let (rates, source) = range {
            minimumRate = rates.lowerBound
            rateSource = source
            if let mode = facts.modeRate, mode < rates.upperBound, mode > rates.lowerBound {
                maximumRate = mode
                notes.append("maximum capped from \(rates.upperBound) to the current mode's \(mode)")
            } else {
                maximumRate = rates.upperBound
            }
            if let mode = facts.modeRate, mode <= rates.lowerBound { inactive.append(.modeBelowRange(mode)) }
        } else {
            minimumRate = facts.modeRate
            maximumRate = facts.modeRate
            rateSource = facts.modeRate == nil ? nil : .displayMode
            inactive.append(.fixedRefresh)
        }
        if facts.override == .off { inactive.append(.disabledByOverride) }
        if !facts.allowedByEnvironment { inactive.append(.disabledByEnvironment) }
        if !facts.fullscreen { inactive.append(.windowed) }
        if facts.windowProperty.refuses { inactive.append(.windowProperty(facts.windowProperty)) }

        return VRRDecision(
            refresh: isVariable ? .variable : .fixed, minimumRate: minimumRate, maximumRate: maximumRate,
            inactiveReasons: inactive, refreshSource: refreshSource, rateSource: rateSource,
            crtcVRREnabled: facts.crtcVRREnabled, confidence: confidence, notes: notes)
    }

    /// Whether the display can refresh variably, what says so, and how sure that is.
    private static func capability(_ facts: VRRFacts, notes: inout [String])
        -> (Bool, VRRFactSource, VRRConfidence) {
        if facts.override == .on { return (true, .userOverride("variable refresh on"), .high) }
        switch facts.driver {
        case .capable:
            return (true, .drmProperty("vrr_capable"), .high)
        case .notCapable:
            if case .variable(let advertised) = facts.edid {
                notes.append("the EDID advertises \(advertised), but the driver reports vrr_capable = 0 "
                    + "(adaptive sync may be off in the monitor's menu)")
            }
            return (false, .drmProperty("vrr_capable"), .high)
        case .noVRRSupport(let driver):
            return (false, .driverWithoutVRR(driver), .high)
        case .unknown(let driverReason):
            switch facts.edid {
            case .variable(let advertised):
                return (true, .edid(advertised.source), .medium([driverReason]))
            case .fixed:
                // G-SYNC module monitors advertise no range; with NVIDIA's driver, "fixed" is a guess.
                if case .proprietaryDriver = driverReason { return (false, .edid(nil), .unknown([driverReason])) }
                return (false, .edid(nil), .medium([driverReason]))
            case .unavailable(let edidReason):
                let reasons = edidReason == driverReason ? [driverReason] : [driverReason, edidReason]
                return (false, .assumption, .unknown(reasons))
            }
        }
    }

    /// The variable range to use and its source: the user's override range, else the EDID's.
    private static func variableRange(_ facts: VRRFacts) -> (ClosedRange<FrameRate>, VRRFactSource)? {
        if let range = facts.overrideRange { return (range, .userOverride("range")) }
        guard case .variable(let advertised) = facts.edid, advertised.range.isValidVariableRefresh else { return nil }
        let rates = FrameRate(hz: Double(advertised.range.minHz))...FrameRate(hz: Double(advertised.range.maxHz))
        return (rates, .edid(advertised.source))
    }
}
