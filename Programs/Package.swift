// swift-tools-version:6.2
// The programs built on Cadence's libraries: the sample game, the template to
// fork, the README's examples, the display probe and the bench, with their
// tests. A package of its own so that swift-argument-parser, which they use,
// never enters the graph of a game that depends on the libraries.
import PackageDescription

/// What a game depends on: the libraries alone.
let libraries: [Target.Dependency] = [
    .product(name: "Cadence", package: "Cadence"),
    .product(name: "CadenceSDL", package: "Cadence"),
]

/// A game's settings, as the README's manifest has them: its code on the main
/// actor by default, so top-level functions may use `main.swift`'s globals.
let game: [SwiftSetting] = [.defaultIsolation(MainActor.self)]

let package = Package(
    name: "CadencePrograms",
    products: [
        .executable(name: "spinning-sprite", targets: ["SpinningSprite"]),
        .executable(name: "display-probe", targets: ["DisplayProbe"]),
        .executable(name: "cadence-bench", targets: ["CadenceBench"]),
        .executable(name: "template", targets: ["Template"]),
        .executable(name: "cheatsheet", targets: ["Cheatsheet"]),
    ],
    dependencies: [
        .package(name: "Cadence", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "SpinningSprite",
            dependencies: [
                "ProgramSupport",
                .product(name: "Cadence", package: "Cadence"),
                .product(name: "CadenceSDL", package: "Cadence"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The file to fork: a whole game in one file (Examples/Template/main.swift, linked here),
        // using the libraries only, as a game of your own does.
        .executableTarget(name: "Template", dependencies: libraries, swiftSettings: game),
        // The README's code, compiled here so it cannot go stale (Scripts/test
        // checks that every Swift block of the README is in these files).
        .executableTarget(name: "ReadmeExample", dependencies: libraries, swiftSettings: game),
        // Every call of the documentation's cheatsheet, compiled (Scripts/check-doc-code
        // checks that the page's code is in it), with an asset found as a game finds its own.
        .executableTarget(name: "Cheatsheet", dependencies: libraries, resources: [.copy("Assets")],
                          swiftSettings: game),
        // The tutorial that builds Pong in CadenceSDL's documentation: each
        // step's whole file, compiled (Scripts/check-doc-code checks that the
        // tutorial's code is in them).
        .executableTarget(name: "PongStep1", dependencies: libraries, path: "Sources/PongTutorial/Step1", swiftSettings: game),
        .executableTarget(name: "PongStep2", dependencies: libraries, path: "Sources/PongTutorial/Step2", swiftSettings: game),
        .executableTarget(name: "PongStep3", dependencies: libraries, path: "Sources/PongTutorial/Step3", swiftSettings: game),
        .executableTarget(name: "PongStep4", dependencies: libraries, path: "Sources/PongTutorial/Step4", swiftSettings: game),
        .executableTarget(
            name: "DisplayProbe",
            dependencies: [
                "ProgramSupport",
                .product(name: "Cadence", package: "Cadence"),
                .product(name: "CadenceSDL", package: "Cadence"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Scripts/bench: pacing figures, judged there and never in the tests.
        .executableTarget(
            name: "CadenceBench",
            dependencies: [
                "ProgramSupport",
                .product(name: "Cadence", package: "Cadence"),
                .product(name: "CadenceSDL", package: "Cadence"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What the sample, the probe and the bench share: their messages on
        // standard error. Not a library for games: it stays in this package.
        .target(name: "ProgramSupport"),
        // The root package's real-monitor EDIDs (Tests/Fixtures, linked here:
        // a target's files must lie inside its package).
        .target(name: "CadenceTestFixtures", path: "Tests/Fixtures"),
        .testTarget(
            name: "SampleTests",
            dependencies: ["CadenceTestFixtures", .product(name: "Cadence", package: "Cadence")]
        ),
    ]
)
