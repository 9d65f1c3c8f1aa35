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
        // The only place that talks C to SDL2 (and SDL2_ttf for text, SDL2_image for PNG textures, SDL2_mixer for sound).
        // No pkg-config: see Sources/CSDL2/shim.h for why.
        .systemLibrary(name: "CSDL2"),
        // libdrm, read-only: a connector's `vrr_capable` and its CRTC's `VRR_ENABLED`.
        .systemLibrary(
            name: "CDRM",
            pkgConfig: "libdrm",
            providers: [.apt(["libdrm-dev"])]
        ),
        // libxcb with the Present extension: the display's clock on X11.
        .systemLibrary(
            name: "CXCBPresent",
            pkgConfig: "xcb-present",
            providers: [.apt(["libxcb-present-dev"])]
        ),
        // Watches a window's X Present clock (MSC and UST) on a connection of its own.
        .target(name: "CXPresentClock", dependencies: ["CXCBPresent", "CSDL2"],
                linkerSettings: [.linkedLibrary("xcb-present"), .linkedLibrary("xcb")]),
        // libwayland-client: the display's clock on native Wayland.
        .systemLibrary(
            name: "CWaylandClient",
            pkgConfig: "wayland-client",
            providers: [.apt(["libwayland-dev"])]
        ),
        // Watches when a window's frames reach the screen through wp_presentation, on a private queue.
        .target(name: "CWaylandPresentation", dependencies: ["CWaylandClient", "CSDL2"],
                linkerSettings: [.linkedLibrary("wayland-client")]),
        // The pacing thread's timer slack and the CPU's spin-wait hint (prctl is variadic).
        .target(name: "CThreadTiming"),
        // Pure Swift: clocks, display link, pacing, statistics, EDID, simulator. No SDL.
        .target(name: "Cadence"),
        // The SDL platform layer and the real-time driver of the display link.
        .target(name: "CadenceSDL", dependencies: ["Cadence", "CSDL2", "CDRM", "CThreadTiming", "CXPresentClock", "CWaylandPresentation"]),
        // Real monitors' EDID bytes, shared by the test targets (which cannot share sources).
        .target(name: "CadenceTestFixtures", path: "Tests/Fixtures"),
        .testTarget(name: "CadenceTests", dependencies: ["Cadence", "CadenceTestFixtures"]),
        .testTarget(name: "CadenceSDLTests", dependencies: ["CadenceSDL", "CSDL2"]),
    ]
)
