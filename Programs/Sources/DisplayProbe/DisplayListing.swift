@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL

/// The `display-probe` listing, as text for a person or JSON for a script.
struct DisplayListing {
    let probe: SDLProbe
    let reports: [DisplayVRRReport]
    let connectors: [DRMConnectorInfo]

    /// The human-readable listing.
    var text: String {
        var lines = ["SDL video driver: \(probe.videoDriver ?? "none")",
                     "real-time class:  \(probe.realTime.words) (a paced game's loop)"]
        if let problem = probe.problem {
            lines.append("no displays: variable refresh unknown (\(problem))")
        }
        for report in reports {
            let d = report.display, decision = report.decision
            lines.append("display \(d.index): \(d.name)  \(d.modeWidth)x\(d.modeHeight) @ \(d.refreshHz) Hz")
            lines.append("  connector:    " + (report.connector.map {
                "\($0.sysfsName) (matched by \(report.matchRule?.rawValue ?? "?")), driver \(report.kernelDriver ?? "unknown")"
            } ?? "none"))
            let vrr = VRRState(decision: decision)
            lines.append("  refresh:      \(decision.summary)")
            lines.append("  VRR:          \(vrr.line)")
            lines.append("    capable:    \(vrr.capableEvidence)")
            lines.append("    requested:  \(vrr.requestedEvidence)")
            lines.append("    in effect:  \(vrr.inEffectEvidence) (measured only while a game presents)")
            if let shortest = decision.minimumRefreshInterval, let longest = decision.maximumRefreshInterval {
                lines.append("  intervals:    \(Self.milliseconds(shortest))–\(Self.milliseconds(longest)) ms")
            }
            lines.append("  sources:      refresh from \(decision.refreshSource); rates from "
                + (decision.rateSource?.description ?? "nowhere (unknown)"))
            lines.append("  DRM:          \(Self.describe(report.facts.driver))"
                + (decision.crtcVRREnabled.map { ", VRR_ENABLED=\($0 ? 1 : 0)" } ?? ""))
            lines.append("  confidence:   \(decision.confidence)")
            lines += decision.notes.map { "  note:         \($0)" }
        }
        lines.append(connectors.isEmpty ? "DRM connectors: none found in sysfs" : "DRM connectors:")
        for connector in connectors {
            let edid = connector.edid.map { edid in
                "\"\(edid.productName ?? "")\" " + (edid.variableRefresh?.description ?? "fixed refresh")
            } ?? "no EDID"
            lines.append("  \(connector.sysfsName)  \(connector.status ?? "unknown")  \(edid)")
        }
        // Names come from sysfs, EDIDs and SDL: a raw escape in one would act on the terminal.
        return lines.map(Self.printable).joined(separator: "\n")
    }

    /// The same as one JSON object: `video_driver`, `real_time_class`, `problem`, `displays`, `connectors`.
    var json: JSON {
        .object([
            ("video_driver", .string(probe.videoDriver)),
            ("real_time_class", .string(probe.realTime.rawValue)),
            ("problem", .string(probe.problem)),
            ("displays", .array(reports.map(Self.json))),
            ("connectors", .array(connectors.map(Self.json))),
        ])
    }

    private static func json(_ report: DisplayVRRReport) -> JSON {
        let d = report.display, decision = report.decision, vrr = VRRState(decision: decision)
        func state(_ value: Bool, _ evidence: String) -> JSON {
            .object([("value", .bool(value)), ("evidence", .string(evidence))])
        }
        return .object([
            ("index", .int(Int(d.index))),
            ("name", .string(d.name)),
            ("mode", .object([("width", .int(d.modeWidth)), ("height", .int(d.modeHeight)),
                              ("refresh_hz", .int(d.refreshHz))])),
            ("connector", .string(report.connector?.sysfsName)),
            ("match_rule", .string(report.matchRule?.rawValue)),
            ("kernel_driver", .string(report.kernelDriver)),
            ("refresh", .string(decision.refresh.rawValue)),
            ("min_hz", decision.minimumRate.map { .number($0.hz) } ?? .null),
            ("max_hz", decision.maximumRate.map { .number($0.hz) } ?? .null),
            ("min_refresh_interval_ns", decision.minimumRefreshInterval.map { .number(Double($0)) } ?? .null),
            ("max_refresh_interval_ns", decision.maximumRefreshInterval.map { .number(Double($0)) } ?? .null),
            ("vrr_capable", state(vrr.isCapable, vrr.capableEvidence)),
            ("vrr_requested", state(vrr.isRequested, vrr.requestedEvidence)),
            ("vrr_in_effect", state(vrr.isInEffect, vrr.inEffectEvidence + " (measured only while a game presents)")),
            ("window_variable_refresh", .string(report.facts.windowProperty.description)),
            ("inactive_reasons", .array(decision.inactiveReasons.map { .string($0.description) })),
            ("refresh_source", .string(decision.refreshSource.description)),
            ("rate_source", .string(decision.rateSource?.description)),
            ("drm", .string(describe(report.facts.driver))),
            ("crtc_vrr_enabled", decision.crtcVRREnabled.map(JSON.bool) ?? .null),
            ("confidence", .string(decision.confidence.level)),
            ("reasons", .array(decision.confidence.reasons.map { .string($0.description) })),
            ("notes", .array(decision.notes.map(JSON.string))),
        ])
    }

    private static func json(_ connector: DRMConnectorInfo) -> JSON {
        .object([
            ("name", .string(connector.sysfsName)),
            ("status", .string(connector.status)),
            ("product_name", .string(connector.edid?.productName)),
            ("variable_refresh", .string(connector.edid?.variableRefresh?.description)),
            ("edid_problem", .string(connector.edidProblem)),
        ])
    }

    /// The driver's word in a few words: `vrr_capable=1`, `unknown (no DRM access: …)`.
    private static func describe(_ fact: DriverFact) -> String {
        switch fact {
        case .capable: "vrr_capable=1"
        case .notCapable: "vrr_capable=0"
        case .noVRRSupport(let driver): "no vrr_capable property (driver \(driver))"
        case .unknown(let reason): "unknown (\(reason))"
        }
    }

    /// `text` with its control characters escaped (`\u{1B}`); the JSON
    /// escapes them itself.
    static func printable(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            let isControl = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            escaped += isControl ? "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" : String(scalar)
        }
        return escaped
    }

    /// `6.944` for 6 944 444 ns.
    private static func milliseconds(_ ns: Nanoseconds) -> String {
        let microseconds = (ns + 500) / 1000
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
