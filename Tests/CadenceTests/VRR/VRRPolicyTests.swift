import Testing
@_spi(Programs) @testable import Cadence

@Suite("VRR policy")
struct VRRPolicyTests {
    private static let amd48to144 = VariableRefreshRange(RefreshRange(minHz: 48, maxHz: 144), source: .amdVSDB)
    private static let noDRM = VRRUnknownReason.noDRMAccess("/dev/dri/card0: Permission denied")
    private static let noEDID = VRRUnknownReason.noEDID("/sys/class/drm/card0-DP-1/edid is empty")

    /// A VRR monitor on a driver that says so, fullscreen at 144 Hz: VRR in effect.
    private func facts(edid: EDIDFact = .variable(amd48to144), driver: DriverFact = .capable,
                       modeHz: Double? = 144, fullscreen: Bool = true) -> VRRFacts {
        VRRFacts(edid: edid, driver: driver, modeRate: modeHz.map { hz($0) }, fullscreen: fullscreen)
    }

    @Test func capableDisplayFullscreenIsInEffect() {
        let decision = VRRPolicy.decide(facts())
        #expect(decision.refresh == .variable)
        #expect(decision.isRequested)
        #expect(decision.minimumRate == hz(48) && decision.maximumRate == hz(144))
        #expect(decision.requestedRange.map { [$0.minimum, $0.maximum] } == [hz(48), hz(144)])
        #expect(decision.requestedRange?.minimum == hz(48) && decision.requestedRange?.maximum == hz(144))
        #expect(decision.refreshSource == .drmProperty("vrr_capable"))
        #expect(decision.rateSource == .edid(.amdVSDB))
        #expect(decision.confidence == .high)
        #expect(decision.summary == "variable 48–144 Hz, requested")
    }

    @Test("Refresh intervals are macOS-style: minimum = 1/max rate, maximum = 1/min rate")
    func refreshIntervals() {
        let decision = VRRPolicy.decide(facts())
        #expect(decision.minimumRefreshInterval == 6_944_444)
        #expect(decision.maximumRefreshInterval == 20_833_333)
        let fixed = VRRPolicy.decide(facts(edid: .fixed, modeHz: 60))
        #expect(fixed.minimumRefreshInterval == 16_666_667 && fixed.maximumRefreshInterval == 16_666_667)
    }

    @Test func windowedVRRIsNotInEffect() {
        let decision = VRRPolicy.decide(facts(fullscreen: false))
        #expect(decision.refresh == .variable)
        #expect(!decision.isRequested)
        #expect(decision.inactiveReasons == [.windowed])
        #expect(decision.requestedRange == nil)
        #expect(decision.summary == "variable 48–144 Hz, not requested: window not fullscreen")
    }

    @Test func glVRRAllowedZeroDisablesIt() {
        var input = facts()
        input.allowedByEnvironment = false
        let decision = VRRPolicy.decide(input)
        #expect(decision.inactiveReasons == [.disabledByEnvironment])
        #expect(decision.requestedRange == nil)
    }

    @Test func overrideOffKeepsTheCapabilityButNotTheEffect() {
        var input = facts()
        input.override = .off
        let decision = VRRPolicy.decide(input)
        #expect(decision.refresh == .variable)
        #expect(decision.inactiveReasons == [.disabledByOverride])
    }

    @Test func theModeRateCapsTheMaximum() {
        let decision = VRRPolicy.decide(facts(modeHz: 60))
        #expect(decision.maximumRate == hz(60))
        #expect(decision.isRequested)
        #expect(decision.notes.contains { $0.contains("capped") })
    }

    @Test func aModeAtOrBelowTheMinimumLeavesNothingToVary() {
        let decision = VRRPolicy.decide(facts(modeHz: 48))
        #expect(decision.inactiveReasons == [.modeBelowRange(hz(48))])
    }

    @Test func anUnknownModeRateLeavesTheRangeAlone() {
        let decision = VRRPolicy.decide(facts(modeHz: nil))
        #expect(decision.maximumRate == hz(144) && decision.isRequested)
    }

    @Test("The driver's vrr_capable = 0 wins over the EDID, with a note")
    func driverSaysNotCapable() {
        let decision = VRRPolicy.decide(facts(driver: .notCapable))
        #expect(decision.refresh == .fixed)
        #expect(decision.inactiveReasons == [.fixedRefresh])
        #expect(decision.minimumRate == hz(144) && decision.maximumRate == hz(144))
        #expect(decision.rateSource == .displayMode)
        #expect(decision.confidence == .high)
        #expect(decision.notes.count == 1)
        #expect(decision.summary == "fixed 144 Hz")
    }

    @Test func aDriverWithoutTheProperty() {
        let decision = VRRPolicy.decide(facts(driver: .noVRRSupport(driver: "i915")))
        #expect(decision.refresh == .fixed)
        #expect(decision.refreshSource == .driverWithoutVRR("i915"))
        #expect(decision.confidence == .high)
    }

    @Test("Without the driver, the EDID decides at medium confidence")
    func edidAlone() {
        let variable = VRRPolicy.decide(facts(driver: .unknown(Self.noDRM)))
        #expect(variable.refresh == .variable && variable.isRequested)
        #expect(variable.refreshSource == .edid(.amdVSDB))
        #expect(variable.confidence == .medium([Self.noDRM]))

        let fixed = VRRPolicy.decide(facts(edid: .fixed, driver: .unknown(Self.noDRM)))
        #expect(fixed.refresh == .fixed)
        #expect(fixed.refreshSource == .edid(nil))
        #expect(fixed.confidence == .medium([Self.noDRM]))
    }

    @Test("With NVIDIA's driver an EDID without a range proves nothing (G-SYNC modules advertise none)")
    func proprietaryDriverAndNoRange() {
        let nvidia = VRRUnknownReason.proprietaryDriver("nvidia does not report vrr_capable")
        let decision = VRRPolicy.decide(facts(edid: .fixed, driver: .unknown(nvidia)))
        #expect(decision.refresh == .fixed)
        #expect(decision.confidence == .unknown([nvidia]))
    }

    @Test func neitherDriverNorEDIDIsUnknown() {
        let decision = VRRPolicy.decide(facts(edid: .unavailable(Self.noEDID), driver: .unknown(Self.noDRM)))
        #expect(decision.refresh == .fixed)
        #expect(decision.refreshSource == .assumption)
        #expect(decision.confidence == .unknown([Self.noDRM, Self.noEDID]))
        #expect(decision.confidence.level == "unknown")

        let noDisplay = VRRUnknownReason.noDisplay("SDL's dummy video driver has no physical outputs")
        let same = VRRPolicy.decide(facts(edid: .unavailable(noDisplay), driver: .unknown(noDisplay), modeHz: nil))
        #expect(same.confidence == .unknown([noDisplay]))
        #expect(same.minimumRate == nil && same.rateSource == nil)
        #expect(same.summary == "fixed, rate unknown")
    }

    @Test("The override on makes a display variable, with the EDID's range or the override range")
    func overrideOn() {
        var input = facts(edid: .fixed, driver: .notCapable)
        input.override = .on
        input.overrideRange = hz(40)...hz(120)
        let decision = VRRPolicy.decide(input)
        #expect(decision.refresh == .variable && decision.isRequested)
        #expect(decision.refreshSource == .userOverride("variable refresh on"))
        #expect(decision.rateSource == .userOverride("range"))
        #expect(decision.requestedRange.map { [$0.minimum, $0.maximum] } == [hz(40), hz(120)])
        #expect(decision.confidence == .high)
    }

    @Test func overrideOnWithoutAnyRangeStaysFixedAndSaysWhy() {
        var input = facts(edid: .fixed, driver: .unknown(Self.noDRM))
        input.override = .on
        let decision = VRRPolicy.decide(input)
        #expect(decision.refresh == .fixed)
        guard case .unknown(let reasons) = decision.confidence, case .noRefreshRange(let detail)? = reasons.last else {
            Issue.record("expected an unknown confidence ending in noRefreshRange, got \(decision.confidence)")
            return
        }
        #expect(detail.contains("no EDID block gives a range") && !detail.contains("--"), "a library message names no program's flag")
    }

    @Test("A capable driver without an EDID range needs an override range")
    func capableWithoutRange() {
        let missing = VRRPolicy.decide(facts(edid: .unavailable(Self.noEDID)))
        #expect(missing.refresh == .fixed)
        #expect(missing.confidence.reasons.count == 1)

        var input = facts(edid: .unavailable(Self.noEDID))
        input.overrideRange = hz(48)...hz(100)
        let given = VRRPolicy.decide(input)
        #expect(given.refresh == .variable && given.rateSource == .userOverride("range"))
    }

    @Test("The override range replaces the EDID's range but not the detection")
    func overrideRangeOnADetectedDisplay() {
        var input = facts()
        input.overrideRange = hz(50)...hz(100)
        #expect(VRRPolicy.decide(input).minimumRate == hz(50))
        var fixedDisplay = facts(edid: .fixed, driver: .notCapable)
        fixedDisplay.overrideRange = hz(50)...hz(100)
        #expect(VRRPolicy.decide(fixedDisplay).refresh == .fixed)
    }

    @Test func everyReasonIsListed() {
        var input = facts(edid: .fixed, driver: .notCapable, fullscreen: false)
        input.override = .off
        input.allowedByEnvironment = false
        #expect(VRRPolicy.decide(input).inactiveReasons
            == [.fixedRefresh, .disabledByOverride, .disabledByEnvironment, .windowed])
    }

    @Test("On X11 the window's _VARIABLE_REFRESH must be 1: unset, 0 or a value the driver ignores refuses; elsewhere, unread or no window, it does not")
    func x11WindowProperty() {
        var input = facts()
        for (property, requested) in [(WindowVRRProperty.value(1), true), (.value(0), false), (.unset, false),
                                      (.ignored("2 items of 32 bits"), false),
                                      (.notX11, true), (.unreadable("no answer"), true), (.noWindow, true)] {
            input.windowProperty = property
            let decision = VRRPolicy.decide(input)
            #expect(decision.isRequested == requested, "\(property)")
            #expect(decision.isCapable)
            if !requested { #expect(decision.inactiveReasons == [.windowProperty(property)]) }
        }
        input.windowProperty = .unset
        #expect(VRRPolicy.decide(input).summary == "variable 48–144 Hz, not requested: no _VARIABLE_REFRESH on the window")
    }

    @Test func crtcStateIsReportedNotDecisive() {
        var input = facts(fullscreen: false)
        input.crtcVRREnabled = true
        let decision = VRRPolicy.decide(input)
        #expect(decision.crtcVRREnabled == true)
        #expect(!decision.isRequested)
    }

    @Test func edidFactFromADecodedEDID() throws {
        var builder = EDIDBuilder()
        builder.extensions = [EDIDBuilder.cta([EDIDBuilder.amdVSDB(version: 1, minHz: 48, maxHz: 144)])]
        #expect(EDIDFact(try EDID(bytes: builder.bytes())) == .variable(Self.amd48to144))
        #expect(EDIDFact(try EDID(bytes: EDIDBuilder().bytes())) == .fixed)
    }

    @Test func vrrRangeArgument() {
        #expect(VRROverride.range(parsing: "48-144") == hz(48)...hz(144))
        #expect(VRROverride.range(parsing: "47.5-120")?.lowerBound == FrameRate(numerator: 95, denominator: 2))
        for bad in ["", "48", "144-48", "48-48", "0-60", "-5-60", "48-1024", "a-b", "48-144-200", "nan-60"] {
            #expect(VRROverride.range(parsing: bad) == nil, "\(bad)")
        }
        #expect(VRROverride(rawValue: "on") == .on && VRROverride(rawValue: "maybe") == nil)
    }

    @Test func reasonsReadWell() {
        #expect(Self.noDRM.description == "no DRM access: /dev/dri/card0: Permission denied")
        #expect(VRRConfidence.medium([Self.noDRM]).description
            == "medium (no DRM access: /dev/dri/card0: Permission denied)")
        #expect(VRRConfidence.high.description == "high")
    }
}
