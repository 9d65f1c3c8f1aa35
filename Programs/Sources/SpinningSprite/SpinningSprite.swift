import ArgumentParser
@_spi(Programs) import Cadence
@_spi(Programs) import CadenceSDL
import Foundation

/// The sample game's command line. Every flag validates its value: a malformed
/// one exits 64 with a message naming the flag and the accepted form.
@main
struct SpinningSprite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spinning-sprite",
        abstract: "A sprite spinning on Cadence's display link: FPS slider, statistics and frame-time graph, hitch demo.",
        discussion: """
        Keys: Left/Right ±1 FPS (Shift ±10), 1/2/3 = 30/60/120, 0 display rate,
        A adaptive, U uncapped (vsync off, no cap), L latency low/smooth,
        F fullscreen, V vsync on/off/adaptive, H a 50 ms hitch, G statistics,
        T hitch demo, Esc/Q quit.

        Examples:
          spinning-sprite
          spinning-sprite --headless --frames 120 --screenshot out.bmp
          spinning-sprite --fps adaptive --hitch 2:50 --trace t.json
          spinning-sprite --simulate-display vrr:48-144 --fps 78 --trace t.csv
          spinning-sprite --fps 60 --latency low
          spinning-sprite --fps uncapped --duration 5
        """
    )

    // MARK: Where it runs

    @Flag(help: "Offscreen, software renderer, e.g. with no display.")
    var headless = false

    @Option(help: ArgumentHelp("A simulated display in virtual time, e.g. vrr:48-144.",
                               valueName: "fixed:<hz>|vrr:<min>-<max>|unknown"))
    var simulateDisplay: String?

    @Flag(help: "Start fullscreen (desktop), e.g. for VRR.")
    var fullscreen = false

    @Flag(help: "Frames held to their time by the compositor (Wayland).")
    var commitTiming = false

    @Option(help: ArgumentHelp("Window size (1280x720), e.g. 1920x1080.", valueName: "WxH"))
    var window: String?

    @Option(help: ArgumentHelp("The sprite, a BMP file, e.g. ship.bmp.", valueName: "path"))
    var sprite: String?

    // MARK: Pacing

    @Option(parsing: .unconditional, help: ArgumentHelp("1…1000, 0 (display), e.g. 78 or uncapped.", valueName: "n|adaptive|uncapped"))
    var fps = "0"

    @Option(help: ArgumentHelp("low = just-in-time frames, e.g. low.", valueName: "low|smooth"))
    var latency = "smooth"

    // The flags without a default value here default in parseOptions(), so
    // that one given where it does nothing is told apart from one left out.

    @Option(help: ArgumentHelp("Vsync on (default), off or adaptive, e.g. off.", valueName: "mode"))
    var vsync: String?

    @Option(help: ArgumentHelp("auto (default), wayland or x11, e.g. x11.", valueName: "driver"))
    var video: String?

    @Option(help: ArgumentHelp("VRR auto (default), on or off, e.g. off.", valueName: "mode"))
    var vrr: String?

    @Option(help: ArgumentHelp("VRR range when the EDID is wrong, e.g. 48-144.", valueName: "min-max"))
    var vrrRange: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Degrees per second, 0 or more, e.g. 180.", valueName: "deg/s"))
    var spinSpeed = "90"

    // MARK: Scripts

    @Option(help: ArgumentHelp("Slider moves, e.g. 2:30,4:144,6:adaptive.", valueName: "sec:fps,..."))
    var fpsSchedule: String?

    @Option(help: ArgumentHelp("Simulated display changes, e.g. 3:fixed:60.", valueName: "sec:spec,..."))
    var refreshSchedule: String?

    @Option(help: ArgumentHelp("Work once, e.g. 1.5:50 (50 ms at 1.5 s).", valueName: "sec:ms,..."))
    var hitch: String?

    @Option(help: ArgumentHelp("Work per frame from these times, e.g. 0:4,5:11.", valueName: "sec:ms,..."))
    var workSchedule: String?

    @Option(help: ArgumentHelp("Synthetic input, e.g. 0.5:key=right,1:drag=90.", valueName: "sec:action,..."))
    var inputScript: String?

    // MARK: Length and output

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds, e.g. 10.", valueName: "sec"))
    var duration: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many frames, e.g. 120.", valueName: "n"))
    var frames: String?

    @Option(help: ArgumentHelp("Save the last frame as a BMP, e.g. out.bmp.", valueName: "file.bmp"))
    var screenshot: String?

    @Option(help: ArgumentHelp("A trace: .csv or .json (Perfetto), e.g. t.json.", valueName: "file"))
    var trace: String?

    /// Signal handlers first, before any file or connection is opened.
    static func main() {
        Interrupts.install()
        main(nil)
    }

    func run() throws {
        let options = try parseOptions()
        if !options.spriteExists, options.simulated == nil || screenshot != nil {
            printError("--sprite: \"\(options.spritePath)\" does not exist"
                       + (sprite == nil ? " (Scripts/make-sprite draws it)" : ""))
            throw ExitCode(66)
        }
        // Real runs measure from now on the monotonic clock (one time base for
        // every MonotonicClock); simulations from virtual time 0.
        let outputs = try Outputs(screenshot: screenshot, trace: trace,
                                  start: options.simulated == nil ? MonotonicClock().now : 0)
        // The argument parser calls run() on the main thread, where the loop runs.
        try MainActor.assumeIsolated {
            if let display = options.simulated {
                try SimulationRun(options: options, display: display, outputs: outputs).run()
            } else {
                try RealTimeRun(options: options, outputs: outputs).run()
            }
        }
    }

    /// Every flag's value, checked; the first bad one throws a usage error (exit 64).
    private func parseOptions() throws -> RunOptions {
        do {
            let limit: GameConfig.Limit
            switch (frames, duration) {
            case (let f?, nil): limit = .frames(try ValueParsers.frameCount(f, flag: "--frames"))
            case (nil, let d?): limit = .duration(try ValueParsers.duration(d, flag: "--duration"))
            case (nil, nil): limit = simulateDisplay != nil ? .duration(10_000_000_000) : .untilQuit
            case (_?, _?): throw ValidationError("--frames and --duration: give one or the other")
            }
            let simulated = try simulateDisplay.map { try SimulatedDisplay.Panel.parse($0, flag: "--simulate-display") }
            let vsyncMode: VSyncMode = try ValueParsers.word(vsync ?? "on", flag: "--vsync")
            let videoChoice: VideoChoice = try ValueParsers.word(video ?? "auto", flag: "--video")
            let vrrPolicy: VRROverride = try ValueParsers.word(vrr ?? "auto", flag: "--vrr")
            let range = try vrrRange.map { try VRROverride.parseRange($0, flag: "--vrr-range") }
            let windowSize = try ValueParsers.windowSize(window ?? "1280x720", flag: "--window")
            try checkFlagsApply(simulated: simulated != nil)
            if simulated != nil, range != nil {
                throw ValidationError("--vrr-range: applies to real displays; give the range in --simulate-display vrr:<min>-<max>")
            }
            if simulated != nil, inputScript != nil {
                throw ValidationError("--input-script: drives a window's events; a --simulate-display run has none (use --fps-schedule)")
            }
            if let trace, !TraceFile.isSupported(path: trace) {
                throw ValidationError("--trace: \"\(trace)\" must end in .csv or .json")
            }
            if simulated != nil, headless {
                throw ValidationError("--headless: a simulation draws nothing on screen anyway; leave out --headless or --simulate-display")
            }
            if simulated != nil, sprite != nil, screenshot == nil {
                throw ValidationError("--sprite: a simulation draws nothing without --screenshot; leave out --sprite or add --screenshot")
            }
            if simulated == nil, refreshSchedule != nil {
                throw ValidationError("--refresh-schedule: needs --simulate-display")
            }
            let config = GameConfig(
                isSimulation: simulated != nil,
                fps: try FrameRateLimit.parse(fps, flag: "--fps"),
                latency: try ValueParsers.word(latency, flag: "--latency"),
                fpsSchedule: try fpsSchedule.map { try Schedule<FrameRateLimit>.parseFPS($0, flag: "--fps-schedule").entries } ?? [],
                hitches: try hitch.map { try Schedule<Nanoseconds>.parseMilliseconds($0, flag: "--hitch", allowZero: false).entries }?
                    .map { (at: $0.at, duration: $0.value) } ?? [],
                workSchedule: try workSchedule.map { try Schedule<Nanoseconds>.parseMilliseconds($0, flag: "--work-schedule", allowZero: true) }
                    ?? Schedule(entries: []),
                spinSpeed: try ValueParsers.spinSpeed(spinSpeed, flag: "--spin-speed"),
                limit: limit,
                inputScript: try inputScript.map(InputScript.parse) ?? []
            )
            return RunOptions(
                config: config, simulated: simulated,
                refreshChanges: try refreshSchedule.map { try Schedule<SimulatedDisplay.Panel>.parseDisplays($0, flag: "--refresh-schedule").entries } ?? [],
                headless: headless, fullscreen: fullscreen, window: windowSize,
                spritePath: sprite ?? RunOptions.defaultSpritePath,
                spritePathBytes: sprite.map(RawArguments.bytes) ?? Array(RunOptions.defaultSpritePath.utf8), vsync: vsyncMode, vrr: vrrPolicy, vrrRange: range,
                video: videoChoice, commitTiming: commitTiming
            )
        } catch let error as ValueError {
            throw ValidationError(error.description)
        }
    }
}

extension SpinningSprite {
    /// A flag that would do nothing in the chosen mode is a usage error:
    /// the player meant something by it. Headless runs draw offscreen, with no
    /// display, driver, vsync or VRR; simulations have no window and no driver.
    fileprivate func checkFlagsApply(simulated: Bool) throws {
        let mode = simulated ? "--simulate-display" : "--headless"
        let idle: [(flag: String, given: Bool, why: String)] = [
            ("--video", video != nil && (simulated || headless), "picks the display server a window opens on; \(mode) opens none"),
            ("--vsync", vsync != nil && headless, "--headless has no display to wait for; it presents without vsync"),
            ("--fullscreen", fullscreen && headless, "--headless has no screen to fill"),
            ("--commit-timing", commitTiming && (simulated || headless), "\(mode) has no compositor to hold frames"),
            ("--vrr", vrr != nil && headless, "--headless has no display to refresh variably"),
            ("--vrr-range", vrrRange != nil && headless, "--headless has no display to refresh variably"),
            ("--window", window != nil && simulated && screenshot == nil,
             "a simulation opens no window; only --screenshot draws at that size"),
        ]
        if let unused = idle.first(where: \.given) {
            throw ValidationError("\(unused.flag): does nothing here: \(unused.why); leave it out")
        }
    }
}
