import Testing
@testable import Cadence

@Suite("EDID fuzzing")
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
    static let hexSeeds: [[UInt8]] = seeds.map { bytes in
        Array(bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ").utf8)
    }

    /// `count` random bytes, eight per draw (byte-at-a-time is slow in debug builds).
    static func noise(count: Int, _ rng: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count { withUnsafeBytes(of: rng.next()) { bytes += $0 } }
        return Array(bytes.prefix(count))
    }

    /// Decodes `input`; false when a decoded EDID breaks what must hold for any input.
    private func holdsUp(_ input: [UInt8], asContents: Bool) -> Bool {
        let decoded = asContents ? try? EDID(contents: input) : try? EDID(bytes: input)
        guard let edid = decoded else { return true }
        let candidates = edid.variableRefreshCandidates
        let sources = candidates.map(\.source)
        // An EDID that cannot be trusted names no range at all.
        let expected = edid.untrustworthyReason != nil ? nil : candidates.first { $0.range.isValidVariableRefresh }
        return edid.variableRefresh == expected
            && sources == sources.sorted()
            && edid.extensionTags.count <= 255
    }

    @Test("100,000 random and mutated inputs decode or fail cleanly", .timeLimit(.minutes(1)))
    func fuzz() {
        var rng = SeededGenerator(seed: 0xCADE_2025)
        var failures: [[UInt8]] = []
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
            if !holdsUp(input, asContents: iteration % 4 == 3 || iteration % 8 == 0) { failures.append(input) }
        }
        #expect(failures.isEmpty, "first failing input: \(failures.first ?? [])")
    }
}
