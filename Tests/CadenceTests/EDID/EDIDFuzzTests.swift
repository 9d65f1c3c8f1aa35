import Testing
@_spi(Programs) @testable import Cadence

/// Random and mutated input through the EDID decoder: nothing traps or hangs,
/// and what decodes keeps properties taken from the EDID format and from the
/// ways users hand EDIDs in, not from the decoder's own code.
@Suite("EDID decoding of random and mutated input")
struct EDIDFuzzTests {
    /// Valid vectors touching every decoder path, to mutate.
    static let seeds: [[UInt8]] = {
        var base = EDIDBuilder()
        base.continuousFrequency = true
        base.descriptors = [EDIDBuilder.productName("FUZZ"), EDIDBuilder.rangeLimits(minHz: 48, maxHz: 105, flags: 0b10)]
        var cta = base
        cta.extensions = [EDIDBuilder.cta([
            EDIDBuilder.eeodb(count: 2),
            EDIDBuilder.amdVSDB(version: 3, minHz: 48, maxHz: 360),
            EDIDBuilder.hdmiForumVSDB(minHz: 40, maxHz: 120),
            EDIDBuilder.hdmiForumSCDB(minHz: 24, maxHz: 144),
        ]), EDIDBuilder.displayID([EDIDBuilder.adaptiveSync([(60, 240)])])]
        cta.announcedExtensions = 1
        var displayID = base
        displayID.extensions = [EDIDBuilder.displayID([
            EDIDBuilder.dynamicRange(minHz: 48, maxHz: 300, revision: 1),
            EDIDBuilder.adaptiveSync([(60, 240), (48, 120)], revision: 0x10),
            EDIDBuilder.ctaInDisplayID([EDIDBuilder.amdVSDB(version: 2, minHz: 40, maxHz: 165)]),
        ])]
        return [base.bytes(), cta.bytes(), displayID.bytes()]
    }()

    /// The seeds as hex text, space-separated as edid-decode prints them.
    static let hexSeeds: [[UInt8]] = seeds.map { spacedHex($0) }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hex pairs separated by spaces (edid-decode's hex dump).
    static func spacedHex(_ bytes: [UInt8]) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 3)
        for (i, byte) in bytes.enumerated() {
            if i > 0 { text.append(0x20) }
            text += [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]]
        }
        return text
    }

    /// `bytes` as `xrandr --props` prints an EDID property: tab-indented
    /// lines of 16 bytes, 32 hex digits each, under an `EDID:` label.
    static func xrandrHex(_ bytes: [UInt8]) -> [UInt8] {
        var text = Array("\tEDID:".utf8)
        text.reserveCapacity(bytes.count * 2 + bytes.count / 8 + 8)
        for (i, byte) in bytes.enumerated() {
            if i % 16 == 0 { text += [0x0A, 0x09, 0x09] }
            text += [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]]
        }
        return text + [0x0A]
    }

    /// `count` random bytes, eight per draw (byte-at-a-time is slow in debug builds).
    static func noise(count: Int, _ rng: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count { withUnsafeBytes(of: rng.next()) { bytes += $0 } }
        return Array(bytes.prefix(count))
    }

    /// What is wrong with decoding `input`, as bytes or as a file's contents; nil when nothing is.
    ///
    /// - An EDID decodes only from at least one 128-byte block that starts with the fixed header.
    /// - The same bytes handed in as hex text, spaced as edid-decode prints them
    ///   or in lines as xrandr does, decode to the same EDID, or fail as well.
    /// - A VRR range it reports is one a panel can have: from at least 1 Hz, to
    ///   at most 1023 Hz, more than 10 Hz wide, and one of the candidates found.
    /// The hex text is checked when `checksHexText` (parsing it costs more than the bytes).
    private func violation(_ input: [UInt8], asContents: Bool, checksHexText: Bool) -> String? {
        let decoded = asContents ? try? EDID(contents: input) : try? EDID(bytes: input)
        if !asContents {
            if decoded != nil, input.count < 128 || !input.starts(with: EDID.header) {
                return "decoded without a 128-byte block starting with the header"
            }
            for text in checksHexText ? [Self.spacedHex(input), Self.xrandrHex(input)] : []
            where (try? EDID(contents: text)) != decoded {
                return "the hex text of the bytes decodes differently from the bytes"
            }
        }
        guard let edid = decoded, let vrr = edid.variableRefresh else { return nil }
        let range = vrr.range
        if range.minHz < 1 || range.maxHz > 1023 || range.maxHz - range.minHz <= 10 {
            return "reported VRR range \(range) no panel has"
        }
        return edid.variableRefreshCandidates.contains(vrr) ? nil : "reported VRR range is not among the candidates"
    }

    @Test("The seeds' hex text, as edid-decode and xrandr print it, decodes to the seeds' EDIDs")
    func hexTextEqualsBytes() throws {
        for seed in Self.seeds {
            let fromBytes = try EDID(bytes: seed)
            #expect(try EDID(contents: Self.spacedHex(seed)) == fromBytes)
            #expect(try EDID(contents: Self.xrandrHex(seed)) == fromBytes)
            #expect(fromBytes.variableRefresh != nil)
        }
    }

    @Test("100,000 random and mutated inputs decode or fail cleanly, keeping the format's properties", .timeLimit(.minutes(5)))
    func fuzz() {
        var rng = SeededGenerator(seed: 0xCADE_2025)
        var failures: [(input: [UInt8], why: String)] = []
        for iteration in 0..<100_000 {
            var input: [UInt8]
            switch iteration % 4 {
            case 0:
                // Pure noise, sometimes behind a valid header so decoding goes deep.
                input = Self.noise(count: Int.random(in: 0...700, using: &rng), &rng)
                if rng.next() % 2 == 0, input.count >= 8 { input[0..<8] = EDID.header[...] }
                // A small extension count, so the noise after the base block is walked as extensions.
                if input.count > 0x7E { input[0x7E] = UInt8.random(in: 0...4, using: &rng) }
            case 1:
                // A valid vector with a few bytes changed; length bytes are favourite targets.
                input = Self.seeds.randomElement(using: &rng)!
                for _ in 0..<Int.random(in: 1...8, using: &rng) {
                    let index = rng.next() % 3 == 0
                        ? [0x7E, 130, 132, 133, 134, 135, 136, 137, 138, 139, 140].randomElement(using: &rng)!
                        : Int.random(in: 8..<input.count, using: &rng)
                    if index < input.count { input[index] = UInt8.random(in: 0...255, using: &rng) }
                }
            case 2:
                // A valid vector cut short or grown.
                input = Self.seeds.randomElement(using: &rng)!
                let length = Int.random(in: 0...(input.count + 300), using: &rng)
                input = length <= input.count
                    ? Array(input.prefix(length))
                    : input + Self.noise(count: length - input.count, &rng)
            default:
                // Hex text, well-formed or damaged.
                var text = Self.hexSeeds.randomElement(using: &rng)!
                if rng.next() % 2 == 0 {
                    text[Int.random(in: 0..<text.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
                input = text
            }
            if let why = violation(input, asContents: iteration % 4 == 3 || iteration % 8 == 0,
                                   checksHexText: iteration % 5 == 0) {
                failures.append((input, why))
            }
        }
        #expect(failures.isEmpty, "\(failures.count) inputs; the first: \(failures.first?.why ?? "") for \(failures.first?.input ?? [])")
    }
}
