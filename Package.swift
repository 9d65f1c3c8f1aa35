// swift-tools-version:6.0
// Cadence: a frame-paced game loop for Swift games on Linux, windowed by SDL2.
// The libraries only, with no package dependencies, so a game's graph holds
// nothing but them; the programs built on them are the package in Programs/.
import PackageDescription

let package = Package(
    name: "Cadence",
    products: [
        .library(name: "Cadence", targets: ["Cadence"]),
        .library(name: "CadenceSDL", targets: ["CadenceSDL"]),
    ],
    targets: [
        // The only place that talks C to SDL2 (and SDL2_ttf for overlay text).
        // No pkg-config: see Sources/CSDL2/shim.h for why.
        .systemLibrary(name: "CSDL2"),
        // libdrm, read-only: a connector's `vrr_capable` and its CRTC's `VRR_ENABLED`.
        .systemLibrary(
            name: "CDRM",
            pkgConfig: "libdrm",
            providers: [.apt(["libdrm-dev"])]
        ),
        // The pacing thread's timer slack and the CPU's spin-wait hint (prctl is variadic).
        .target(name: "CThreadTiming"),
        // Pure Swift: clocks, display link, pacing, statistics, EDID, simulator. No SDL.
        .target(name: "Cadence"),
        // The SDL platform layer and the real-time driver of the display link.
        .target(name: "CadenceSDL", dependencies: ["Cadence", "CSDL2", "CDRM", "CThreadTiming"]),
        // Real monitors' EDID bytes, shared by the test targets (which cannot share sources).
        .target(name: "CadenceTestFixtures", path: "Tests/Fixtures"),
        .testTarget(name: "CadenceTests", dependencies: ["Cadence", "CadenceTestFixtures"]),
        .testTarget(name: "CadenceSDLTests", dependencies: ["CadenceSDL", "CSDL2"]),
    ]
)
