import Foundation
import CadenceTestFixtures
import Testing

@Suite("display-probe command line")
struct DisplayProbeCLITests {
    // MARK: EDID vectors, byte by byte (EDID 1.4 base block, CTA-861 and DisplayID extensions)

    /// A base block: header, version 1.`revision`, digital input, continuous
    /// frequency bit, descriptors at 54/72/90/108, extension count, checksum.
    private static func baseBlock(revision: UInt8 = 4, continuous: Bool = false, name: String?,
                                  rangeLimits: (min: UInt8, max: UInt8, flags: UInt8, timingClass: UInt8)?,
                                  extensions: Int) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 128)
        block[0..<8] = [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
        block[0x12] = 1
        block[0x13] = revision
        block[0x14] = 0x80
        block[0x18] = continuous ? 1 : 0
        var slot = 54
        if let name {
            var text = Array(name.utf8.prefix(13))
            if text.count < 13 { text.append(0x0A) }
            while text.count < 13 { text.append(0x20) }
            block[slot..<slot + 18] = ([0, 0, 0, 0xFC, 0] + text)[...]
            slot += 18
        }
        if let r = rangeLimits {
            block[slot..<slot + 18] = ([0, 0, 0, 0xFD, r.flags, r.min, r.max, 30, 160, 30, r.timingClass, 0x0A]
                + [UInt8](repeating: 0x20, count: 6))[...]
        }
        block[0x7E] = UInt8(extensions)
        return withChecksum(block)
    }

    /// An extension block: `header` then `payload`, zero padding and a checksum.
    private static func extensionBlock(_ header: [UInt8], _ payload: [UInt8]) -> [UInt8] {
        var block = header + payload
        block += [UInt8](repeating: 0, count: 128 - block.count)
        return withChecksum(block)
    }

    /// CTA-861: tag 2, revision 3, DTD offset after the data blocks, flags.
    private static func cta(_ dataBlocks: [UInt8]) -> [UInt8] {
        extensionBlock([0x02, 0x03, UInt8(4 + dataBlocks.count), 0x00], dataBlocks)
    }

    /// DisplayID 2.0: tag 0x70, version, section length, product type, extension count.
    private static func displayID(_ dataBlocks: [UInt8]) -> [UInt8] {
        extensionBlock([0x70, 0x20, UInt8(dataBlocks.count), 0x00, 0x00], dataBlocks)
    }

    private static func withChecksum(_ block: [UInt8]) -> [UInt8] {
        var block = block
        block[127] = 0
        block[127] = 0 &- block.reduce(0, &+)
        return block
    }

    /// AMD FreeSync v3 (OUI 1A 00 00): +6 min, +7 legacy max, +14/+15 10-bit max.
    private static let amdV3_48to360: [UInt8] =
        [3 << 5 | 18, 0x1A, 0x00, 0x00, 0x03, 0x01, 48, 240, 0, 0, 0, 0, 0, 0, 0x68, 0x01, 0, 0, 0]  // 0x168 = 360
    /// HDMI Forum VSDB (OUI D8 5D C4): +9 = max bits 9–8 | min, +10 = max bits 7–0.
    private static let hdmiForum40to120: [UInt8] =
        [3 << 5 | 12, 0xD8, 0x5D, 0xC4, 0x01, 0x78, 0x80, 0x00, 0x00, 40, 120, 0, 0]
    /// DisplayID Adaptive-Sync (0x2B): d[2] min, d[3] = max − 1.
    private static let adaptiveSync60to240: [UInt8] = [0x2B, 0x00, 6, 0x27, 0x00, 60, 239, 0x00, 0x00]
    /// DisplayID Dynamic Video Timing Range (0x25), revision 1: +9 min, +10/+11 10-bit max.
    private static let dynamicRange48to300: [UInt8] = [0x25, 0x01, 9, 0, 0, 0, 0, 0, 0, 48, 0x2C, 0x01]  // 0x12C = 300

    private static let amdMonitor = baseBlock(name: "FREESYNC 360", rangeLimits: (48, 105, 0b10, 0x01), extensions: 1)
        + cta(amdV3_48to360)

    // MARK: Running it

    private func writeFile(_ bytes: [UInt8], named name: String = "edid.bin") throws -> String {
        let url = try Subprocess.temporaryDirectory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Runs `display-probe edid FILE --json`, expecting exit 0 and one JSON object.
    private func decodeJSON(_ bytes: [UInt8]) throws -> (object: [String: Any], stderr: String) {
        let result = try Subprocess.run("display-probe", ["edid", try writeFile(bytes), "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (try #require(object, "not one JSON object: \(result.stdout)"), result.stderr)
    }

    private func range(_ value: Any?) -> [Int]? {
        guard let object = value as? [String: Any], let low = object["min_hz"] as? Int,
              let high = object["max_hz"] as? Int else { return nil }
        return [low, high]
    }

    // MARK: display-probe edid

    @Test("AMD v3 block with a 10-bit maximum, and 0xFD with the 1.4 +255 offset")
    func amdVersion3() throws {
        let (json, stderr) = try decodeJSON(Self.amdMonitor)
        #expect(json["product_name"] as? String == "FREESYNC 360")
        #expect(json["edid_version"] as? String == "1.4")
        #expect(range(json["range_limits"]) == [48, 360])
        #expect(range(json["variable_refresh"]) == [48, 360])
        #expect((json["variable_refresh"] as? [String: Any])?["source"] as? String == "amd-vsdb")
        #expect(stderr.isEmpty)
        #expect(Set(json.keys) == ["product_name", "edid_version", "range_limits", "not_trustworthy_because",
                                   "variable_refresh"])
        #expect(json["not_trustworthy_because"] is NSNull)
    }

    @Test("Each source is named as documented")
    func everySourceName() throws {
        let cases: [([UInt8], [Int], String)] = [
            (Self.baseBlock(revision: 3, name: "TV", rangeLimits: (24, 120, 0, 0), extensions: 1)
                + Self.cta(Self.hdmiForum40to120), [40, 120], "hdmi-forum-vrr"),
            (Self.baseBlock(name: "PANEL", rangeLimits: nil, extensions: 1)
                + Self.displayID(Self.adaptiveSync60to240), [60, 240], "displayid-adaptive-sync"),
            (Self.baseBlock(name: "DYN", rangeLimits: nil, extensions: 1)
                + Self.displayID(Self.dynamicRange48to300), [48, 300], "displayid-dynamic-range"),
            (Self.baseBlock(continuous: true, name: "RANGE", rangeLimits: (48, 144, 0, 0x01), extensions: 0),
             [48, 144], "range-limits"),
        ]
        for (bytes, expected, source) in cases {
            let (json, _) = try decodeJSON(bytes)
            #expect(range(json["variable_refresh"]) == expected, "\(source)")
            #expect((json["variable_refresh"] as? [String: Any])?["source"] as? String == source)
        }
    }

    @Test("A fixed display: range limits without VRR, and no name")
    func fixedDisplay() throws {
        let (json, _) = try decodeJSON(Self.baseBlock(revision: 3, name: nil, rangeLimits: (56, 76, 0, 0), extensions: 0))
        #expect(json["product_name"] is NSNull)
        #expect(json["edid_version"] as? String == "1.3")
        #expect(range(json["range_limits"]) == [56, 76])
        #expect(json["variable_refresh"] is NSNull)
        let (bare, _) = try decodeJSON(Self.baseBlock(name: "X", rangeLimits: nil, extensions: 0))
        #expect(bare["range_limits"] is NSNull)
    }

    @Test("Hex text as xrandr --props and edid-decode print it")
    func hexTextInput() throws {
        let hex = Self.amdMonitor.map { String(format: "%02x", $0) }
        let xrandr = "\tEDID:\n" + stride(from: 0, to: hex.count, by: 16)
            .map { "\t\t" + hex[$0..<$0 + 16].joined() }.joined(separator: "\n") + "\n"
        let colons = hex.joined(separator: ":")
        for text in [xrandr, colons, hex.joined(separator: " ")] {
            let (json, _) = try decodeJSON(Array(text.utf8))
            #expect(range(json["variable_refresh"]) == [48, 360])
        }
    }

    /// Runs `display-probe edid <argument>` with `input` on standard input.
    private func decodeFromStandardInput(_ input: String, argument: String) throws -> Subprocess.Result {
        let file = try writeFile(Array(input.utf8), named: "input.txt")
        let binary = Subprocess.productsDirectory.appendingPathComponent("display-probe").path
        return try Subprocess.runExecutable("/bin/sh", ["-c", "exec \"$0\" edid \"$1\" < \"$2\"", binary, argument, file])
    }

    @Test("edid-decode output and a whole xrandr --props listing, from a file and on standard input (real LG 27GL850)",
          arguments: ["-", "/dev/stdin", "file"])
    func realTextInputs(argument: String) throws {
        for text in [RealEDIDs.edidDecodeText(RealEDIDs.lg27GL850), RealEDIDs.xrandrPropsText(RealEDIDs.lg27GL850)] {
            let result = argument == "file"
                ? try Subprocess.run("display-probe", ["edid", try writeFile(Array(text.utf8), named: "edid.txt")])
                : try decodeFromStandardInput(text, argument: argument)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("product name:      27GL850"))
            #expect(result.stdout.contains("range limits:      48–144 Hz (0xFD, range limits only)"), "\(result.stdout)")
            #expect(result.stdout.contains("variable refresh:  48–144 Hz from range-limits"))
            #expect(!result.stdout.contains("not VRR"))
        }
    }

    @Test("A range-limits block not taken as VRR says why (real Dell U2414H, EDID 1.3, GTF)")
    func rangeLimitsNotVRR() throws {
        let result = try Subprocess.run("display-probe", ["edid", try writeFile(RealEDIDs.dellU2414H)])
        #expect(result.status == 0)
        #expect(result.stdout.contains("56–76 Hz (0xFD, default GTF)"), "\(result.stdout)")
        #expect(result.stdout.contains("range limits not VRR: EDID 1.3"))
        #expect(result.stdout.contains("variable refresh:  none (fixed refresh)"))
        #expect(!result.stdout.contains("timing class 0x"))
    }

    @Test("The JSON names the timing class and says why range limits were not taken as VRR (real Dell U2414H)")
    func rangeLimitsInJSON() throws {
        let (json, _) = try decodeJSON(RealEDIDs.dellU2414H)
        let limits = try #require(json["range_limits"] as? [String: Any])
        #expect(limits["timing_class"] as? String == "default GTF")
        #expect((limits["not_vrr_because"] as? String)?.hasPrefix("not VRR: EDID 1.3") == true)
        #expect(json["variable_refresh"] is NSNull)
    }

    @Test("A checksum mismatch is a warning on stderr and decoding goes on")
    func checksumWarning() throws {
        var bytes = Self.amdMonitor
        bytes[127] &+= 1
        let (json, stderr) = try decodeJSON(bytes)
        #expect(stderr.contains("checksum mismatch in block 0"))
        #expect(range(json["variable_refresh"]) == [48, 360])
    }

    @Test func humanReadableOutput() throws {
        let result = try Subprocess.run("display-probe", ["edid", try writeFile(Self.amdMonitor)])
        #expect(result.status == 0)
        #expect(result.stdout.contains("product name:      FREESYNC 360"))
        #expect(result.stdout.contains("variable refresh:  48–360 Hz from amd-vsdb"))
        #expect(result.stdout.contains("candidate:       48–360 Hz from amd-vsdb (selected)"))
    }

    @Test("Not an EDID exits 65, no file to read 66, with a message on stderr")
    func notAnEDID() throws {
        var badHeader = Self.amdMonitor
        badHeader[0] = 0x01
        let directory = try Subprocess.temporaryDirectory().path
        let cases: [(String, String, Int32)] = [
            (try writeFile(badHeader), "not an EDID: it starts 01 FF", 65),
            (try writeFile(Array(Self.amdMonitor.prefix(100))), "not an EDID: 100 bytes", 65),
            (try writeFile([]), "not an EDID: 0 bytes", 65),
            (try writeFile(Array("this is just some text\n".utf8), named: "notes.txt"), "not an EDID", 65),
            (directory + "/missing.bin", "cannot read", 66),
            (directory, "not a regular file", 66),
        ]
        for (path, message, status) in cases {
            let result = try Subprocess.run("display-probe", ["edid", path, "--json"])
            #expect(result.status == status, "\(path)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }

    @Test("Usage errors exit 64")
    func usageErrors() throws {
        for arguments in [["edid"], ["--no-such-flag"], ["--vrr", "sometimes"], ["--vrr-range", "144-48"],
                          ["edid", "a", "b"], ["--vrr", "off", "--vrr-range", "48-144"]] {
            let result = try Subprocess.run("display-probe", arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.isEmpty)
        }
    }

    // MARK: display-probe (the displays)

    @Test("With SDL's dummy driver: one display, VRR unknown with the reason, exit 0")
    func dummyDriver() throws {
        let result = try Subprocess.run("display-probe", ["--json"], environment: ["SDL_VIDEODRIVER": "dummy"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["video_driver"] as? String == "dummy")
        // The class a paced game's loop would run in: root or an RLIMIT_RTPRIO allowance gives the kernel's.
        #expect(["normal", "kernel", "realtimeKit"].contains(json["real_time_class"] as? String ?? ""))
        let displays = try #require(json["displays"] as? [[String: Any]])
        #expect(displays.count >= 1)
        #expect(displays.first?["confidence"] as? String == "unknown")
        for state in ["vrr_capable", "vrr_requested", "vrr_in_effect"] {
            let entry = displays.first?[state] as? [String: Any]
            #expect(entry?["value"] as? Bool == false && (entry?["evidence"] as? String)?.isEmpty == false, "\(state)")
        }
        #expect((displays.first?["reasons"] as? [String])?.first?.hasPrefix("no display:") == true)

        let text = try Subprocess.run("display-probe", [], environment: ["SDL_VIDEODRIVER": "dummy"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("SDL video driver: dummy"))
        #expect(text.stdout.contains("real-time class:  "))
        #expect(text.stdout.contains("confidence:   unknown (no display:"))
    }

    @Test("No display server reachable, or none named: an error naming it, exit 1, nothing on standard output")
    func noDisplayServer() throws {
        for environment in [["SDL_VIDEODRIVER": "x11", "DISPLAY": ":97531"], ["SDL_VIDEODRIVER": "", "DISPLAY": ":97531", "WAYLAND_DISPLAY": ""],
                            ["SDL_VIDEODRIVER": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""]] {
            for arguments in [["--json"], []] {
                let result = try Subprocess.run("display-probe", arguments, environment: environment)
                #expect(result.status == 1, "\(environment): \(result.stderr)")
                #expect(result.stdout.isEmpty, "\(environment): \(result.stdout)")
                let named = environment["DISPLAY"] == "" ? "DISPLAY and WAYLAND_DISPLAY are unset"
                    : "the X server at DISPLAY=:97531"
                #expect(result.stderr.hasPrefix("display-probe: no display server: \(named)"), "\(result.stderr)")
            }
        }
    }

    @Test("A connector whose name holds control characters is listed with them escaped (a private sysfs, mounted as root)",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")))
    func controlCharactersEscaped() throws {
        let probe = Subprocess.productsDirectory.appendingPathComponent("display-probe").path
        // A mount namespace of its own: a tmpfs over /sys/class with one connector, named with ESC [2J and BEL.
        let script = """
            mount -t tmpfs none /sys/class && mkdir /sys/class/drm || exit 70
            d="/sys/class/drm/card0-DP-1$(printf '\\033[2J\\007')" && mkdir "$d" && echo connected > "$d/status" || exit 70
            exec "$1"
            """
        let result = try Subprocess.runExecutable("/usr/bin/unshare", ["--mount", "--propagation", "private",
                                                                       "sh", "-c", script, "sh", probe],
                                                  environment: ["SDL_VIDEODRIVER": "dummy"])
        try #require(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  card0-DP-1\\u{1B}[2J\\u{7}  connected"), "\(result.stdout)")
        #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(result.stdout)")
    }
}
