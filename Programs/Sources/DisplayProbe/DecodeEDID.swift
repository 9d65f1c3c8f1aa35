import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL

/// `display-probe edid FILE [--json]`: decodes one EDID file.
struct DecodeEDID: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edid",
        abstract: "Decodes an EDID: binary, a hex dump, edid-decode output or a whole xrandr --props listing.",
        discussion: """
        Exits 66 when the file cannot be opened (missing, a directory, no permission), 65 when it is
        not an EDID; a checksum mismatch is only a warning on stderr.
        """
    )

    @Argument(help: "The EDID file, or - for standard input, e.g. /sys/class/drm/card0-DP-1/edid.")
    var file: String

    @Flag(help: "Print exactly one JSON object for scripts.")
    var json = false

    func run() throws {
        let edid: EDID
        let path = Self.openablePath(file)
        switch EDIDFile.load(path) {
        case .success(let decoded):
            edid = decoded
        case .failure(let failure):
            printError("\(failure)".replacing(path, with: file))
            if case .unreadable = failure { throw ExitCode(66) }
            throw ExitCode(65)
        }
        for warning in edid.warnings { printError("warning: \(file): \(warning)") }
        print(json ? Self.json(edid).text : Self.text(edid))
    }

    /// A path that opens the file the user named: the name itself, or, when
    /// its bytes are not UTF-8 (which the argument parser cannot hold), the
    /// file opened by those bytes and named by its descriptor.
    private static func openablePath(_ file: String) -> String {
        let bytes = RawArguments.bytes(of: file)
        guard bytes != Array(file.utf8) else { return file }
        let fd = (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
            open($0.baseAddress!, O_RDONLY | O_NONBLOCK)
        }
        return fd >= 0 ? "/dev/fd/\(fd)" : file
    }

    /// The documented object: product_name, edid_version, range_limits (with
    /// its timing class and, when it was not taken as VRR, why), variable_refresh.
    static func json(_ edid: EDID) -> JSON {
        .object([
            ("product_name", .string(edid.productName)),
            ("edid_version", .string(edid.versionString)),
            ("range_limits", edid.rangeLimits.map {
                .object([("min_hz", .int($0.vertical.minHz)), ("max_hz", .int($0.vertical.maxHz)),
                         ("timing_class", .string($0.timingClassName)),
                         ("not_vrr_because", .string(edid.rangeLimitsVerdict))])
            } ?? .null),
            ("not_trustworthy_because", edid.untrustworthyReason.map(JSON.string) ?? .null),
            ("variable_refresh", edid.variableRefresh.map {
                .object([("min_hz", .int($0.range.minHz)), ("max_hz", .int($0.range.maxHz)),
                         ("source", .string($0.source.rawValue))])
            } ?? .null),
        ])
    }

    /// The same facts for a person, with every candidate range the rule weighed.
    static func text(_ edid: EDID) -> String {
        var lines = [
            "product name:      \(edid.productName ?? "(none)")",
            "EDID version:      \(edid.versionString)",
            "range limits:      " + (edid.rangeLimits.map {
                "\($0.vertical) (0xFD, \($0.timingClassName))"
            } ?? "none"),
        ]
        if let verdict = edid.rangeLimitsVerdict { lines.append("                   range limits \(verdict)") }
        lines += [
            "variable refresh:  " + (edid.variableRefresh?.description
                ?? edid.untrustworthyReason.map { "none (the EDID is not trustworthy: \($0))" } ?? "none (fixed refresh)"),
            "extensions:        " + (edid.extensionTags.isEmpty ? "none" : edid.extensionTags.map(Self.extensionName).joined(separator: ", ")),
        ]
        for candidate in edid.variableRefreshCandidates {
            let verdict = edid.untrustworthyReason != nil ? "not trusted"
                : candidate == edid.variableRefresh ? "selected"
                : candidate.range.isValidVariableRefresh ? "valid, outranked" : "invalid, skipped"
            lines.append("  candidate:       \(candidate) (\(verdict))")
        }
        return lines.joined(separator: "\n")
    }

    private static func extensionName(_ tag: UInt8) -> String {
        switch tag {
        case 0x02: "CTA-861"
        case 0x70: "DisplayID"
        default: "tag " + hexByte(tag)
        }
    }

    /// `0x01`.
    private static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" : "") + digits
    }
}
