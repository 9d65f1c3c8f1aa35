@_spi(Programs) import Cadence
import Testing
@_spi(Programs) @testable import CadenceSDL

extension SDLSuites {
    @Suite("The statistics overlay, drawn on the software renderer")
    struct StatisticsOverlayDrawing {
        private static let ms: Nanoseconds = 1_000_000

        /// A frame planned at 50 Hz (20 ms) shown at `glass`, `late` after its target.
        private func record(_ i: Int, glass: Nanoseconds, late: Nanoseconds = 0) -> FrameRecord {
            FrameRecord(frame: i, timestamp: glass - 20 * Self.ms, targetTimestamp: glass - late, presentTime: glass,
                        delta: 20 * Self.ms, limit: .adaptive, rate: FrameRate(hz: 50), refreshMode: .fixed,
                        callbackStart: glass - 30 * Self.ms, workEnd: 0, presentSubmit: 0, skippedFrames: 0,
                        glassTime: glass, glassSource: .vblank)
        }

        @Test("The VRR line: the furthest state reached and its evidence, within the panel")
        func variableRefreshLine() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let window = try Window(title: "test", width: 600, height: 400, hidden: true)
            let overlay = try StatisticsOverlay(renderer: try Renderer(window: window, software: true, vsync: .off))
            var requested = record(0, glass: 1_000_000_000)
            var tracker = VariableRefreshTracker()
            tracker.update(decision: VRRPolicy.decide(VRRFacts(
                edid: .variable(VariableRefreshRange(RefreshRange(minHz: 48, maxHz: 144), source: .amdVSDB)),
                driver: .capable, modeRate: FrameRate(hz: 144), fullscreen: true)), modeRate: FrameRate(hz: 144))
            requested.variableRefresh = tracker.state
            overlay.record(requested)
            #expect(overlay.lines[5].text == "vrr    requested; 0/0 frames off the grid")
        }

        @Test("Figures from glass times, a fixed 50 ms scale, and a legend for every colour the bars use")
        func figuresAndGraph() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let window = try Window(title: "test", width: 600, height: 400, hidden: true)
            let renderer = try Renderer(window: window, software: true, vsync: .off)
            let overlay = try StatisticsOverlay(renderer: renderer, fontSize: 14)
            // 11 frames 20 ms apart on time, then one 40 ms after (20 ms late), then one 70 ms after (50 ms late).
            var glass: Nanoseconds = 1_000_000_000
            for i in 0...10 {
                overlay.record(record(i, glass: glass))
                glass += 20 * Self.ms
            }
            glass += 20 * Self.ms
            overlay.record(record(11, glass: glass, late: 20 * Self.ms))
            glass += 70 * Self.ms
            overlay.record(record(12, glass: glass, late: 50 * Self.ms))

            // 13 frames over 310 ms: 12 intervals, 38.71 FPS. Late: 2. They cover
            // 330 ms (the first from its timestamp, 20 ms before), 70 ms of it late: 212.1 ms/s.
            let lines = overlay.lines
            #expect(lines[0].text == "achieved 38.7 FPS   planned 50.00 Hz")
            #expect(lines[1].text == "late 2  hitch ratio 212.1 ms/s  last 0.3 s" && lines[1].isWarning)
            // Their work ended at 0 and they were submitted at 0, no wait: late by the work.
            #expect(lines[2].text == "cause  work 2" && lines[2].isWarning)
            #expect(lines[4].text == "glass  measured")
            // These records carry no VRR states (the backend judged none).
            #expect(lines[5].text == "vrr    –")
            // The records' rate was asked for (50 FPS): what holds the planned rate, not a warning.
            #expect(lines[6].text == "rate   50.00 FPS, as requested" && !lines[6].isWarning)
            overlay.limitReason = "38/50 FPS, presents take 9.0 ms"
            #expect(overlay.lines[6].text == "below plan: 38/50 FPS, presents take 9.0 ms" && overlay.lines[6].isWarning)

            renderer.clear(Color(10, 10, 10))
            let panel = overlay.draw(x: 0, y: 0)
            #expect(panel.width == overlay.size.width && panel.height == overlay.size.height)
            let image = try renderer.readPixels()
            let plot = overlay.graphPlot
            let bottom = plot.y + plot.height
            /// The row a span reaches: its share of 50 ms of the plot's height.
            func top(_ ms: Nanoseconds) -> Int { bottom - Int(Double(plot.height) * Double(ms) / 50) }
            func rgb(_ c: Color) -> (UInt8, UInt8, UInt8) { (c.r, c.g, c.b) }
            let newest = plot.x + plot.width - 1   // bar 12: 70 ms, over the scale
            #expect(image.rgb(x: newest, y: plot.y) == rgb(FrameTimeGraph.clippedColor))
            #expect(image.rgb(x: newest, y: bottom - 1) == rgb(FrameTimeGraph.hitchColor))
            let second = newest - 2                // bar 11: 40 ms, a hitch (over 30 ms)
            #expect(image.rgb(x: second, y: top(40) + 1) == rgb(FrameTimeGraph.hitchColor))
            #expect(image.rgb(x: second, y: top(40) - 3) != rgb(FrameTimeGraph.hitchColor))
            let third = newest - 4                 // bar 10: 20 ms on time, its plan marked at 20 ms
            #expect(image.rgb(x: third, y: bottom - 1) == rgb(FrameTimeGraph.intervalColor))
            #expect(image.rgb(x: third, y: top(20) - 1) == rgb(FrameTimeGraph.targetColor))
            // Every colour the graph uses has its swatch in the legend, below the plot.
            let legend = (bottom..<panel.height).flatMap { y in (0..<panel.width).map { image.rgb(x: $0, y: y) } }
            for entry in FrameTimeGraph.legend {
                #expect(legend.contains { $0 == rgb(entry.color) }, "no swatch for \(entry.words)")
            }
        }

        @Test("A long line wraps under its value at a space, a word too long for a row is cut, and the rows never pass ten, the rate's line kept whole")
        func longLinesWrapInsideThePanel() {
            let clock = "clock  XWayland's Present clock (estimated: not the compositor's)"
            // 44 columns: the last space at or before column 44 is the one after "(estimated:" (column 43).
            #expect(StatisticsOverlay.rows([(clock, false)]).map(\.text)
                    == ["clock  XWayland's Present clock (estimated:", "       not the compositor's)"])
            // No space to wrap at: 44 characters, then the other 13 under the value.
            let word = "rate   " + String(repeating: "a", count: 50)
            #expect(StatisticsOverlay.rows([(word, true)]).map(\.text)
                    == ["rate   " + String(repeating: "a", count: 37), "       " + String(repeating: "a", count: 13)])
            #expect(StatisticsOverlay.rows([(word, true)]).allSatisfy { $0.isWarning })
            // Two long lines and seven short ones need eleven rows: the earlier long one keeps its first, cut.
            let rate = "rate   30.00 FPS, the nearest rate the display shows evenly"
            #expect(StatisticsOverlay.rows([("a", false), ("b", false), (clock, false), ("c", false), ("d", false),
                                            ("e", false), (rate, false), ("f", false), ("g", false)]).map(\.text)
                    == ["a", "b", "clock  XWayland's Present clock (estimated:…", "c", "d", "e",
                        "rate   30.00 FPS, the nearest rate the", "       display shows evenly", "f", "g"])
            // Eleven short lines: ten rows, the tenth marked as cut.
            let eleven = (1...11).map { ("line \($0)", false) }
            #expect(StatisticsOverlay.rows(eleven).map(\.text) == (1...9).map { "line \($0)" } + ["line 10…"])
        }
        @Test("The cpu line: the pacing's CPU a frame and its share of a core beside the work's; the sched line the class in force")
        func cpuAndSchedulingLines() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let window = try Window(title: "test", width: 600, height: 400, hidden: true)
            let overlay = try StatisticsOverlay(renderer: try Renderer(window: window, software: true, vsync: .off))
            #expect(overlay.lines[7].text == "cpu    –" && overlay.lines[8].text == "sched  –")
            var glass: Nanoseconds = 1_000_000_000
            for i in 0...9 {
                var costed = record(i, glass: glass)
                // Frames alternately 0.04 and 0.08 ms of pacing, 1.1 and 1.3 ms of work, in 20 ms turns.
                costed.cpu = FrameCPU(work: (i % 2 == 0 ? 1_100 : 1_300) * 1_000, pacing: (i % 2 == 0 ? 40 : 80) * 1_000,
                                      loop: 2 * Self.ms, span: 20 * Self.ms)
                overlay.record(costed)
                glass += 20 * Self.ms
            }
            overlay.scheduling = "fifo (kernel)"
            // Means: 0.06 ms of pacing (0.3% of 20 ms) and 1.2 ms of work a frame.
            #expect(overlay.lines[7].text == "cpu    pacing 0.06 ms (0.3%) work 1.20 ms")
            #expect(overlay.lines[8].text == "sched  fifo (kernel)")
        }

        @Test("Switched to uncapped: the first line and the rate line say nothing paces the frames, within the panel's columns")
        func uncappedLines() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let window = try Window(title: "test", width: 600, height: 400, hidden: true)
            let overlay = try StatisticsOverlay(renderer: try Renderer(window: window, software: true, vsync: .off))
            var glass: Nanoseconds = 1_000_000_000
            for i in 0...5 {
                overlay.record(record(i, glass: glass))
                glass += 20 * Self.ms
            }
            #expect(overlay.lines[6].text == "rate   50.00 FPS, as requested")
            // Then frames nothing paces, 1 ms apart: 1000 FPS.
            for i in 6...9 {
                var unpaced = record(i, glass: glass)
                unpaced.rate = nil
                overlay.record(unpaced)
                glass += Self.ms
            }
            let lines = overlay.lines
            #expect(lines[0].text.hasSuffix("   not paced (uncapped)"), "\(lines[0].text)")
            #expect(lines[6].text == "rate   uncapped: as fast as frames are made")
            #expect(lines.allSatisfy { $0.text.count <= StatisticsOverlay.columns }, "\(lines.map(\.text))")
        }
    }
}
