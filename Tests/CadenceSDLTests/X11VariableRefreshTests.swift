@_spi(Programs) import Cadence
import Foundation
import Testing
@_spi(Programs) @testable import CadenceSDL

extension SDLSuites {
    /// The window's `_VARIABLE_REFRESH` read back from a real X server (a
    /// private Xvfb), set and unset by `xprop`, an X client of its own.
    @Suite("X11 window's _VARIABLE_REFRESH")
    struct X11VariableRefreshReading {
        /// A private Xvfb on a display number it picks itself (`-displayfd`), stopped by its pid.
        private final class PrivateXvfb {
            let process = Process()
            let display: String

            init() throws {
                let pipe = Pipe()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
                // -noreset: a server whose last client leaves resets, and drops a client
                // connecting meanwhile; xprop's checks below would leave SDL that race.
                process.arguments = ["-displayfd", "1", "-noreset", "-nolisten", "tcp", "-screen", "0", "640x480x24"]
                process.standardOutput = pipe
                process.standardError = FileHandle.nullDevice
                try process.run()
                // Xvfb writes its display number once it accepts clients; bounded by a 10 s watchdog.
                let watchdog = DispatchWorkItem { [process] in kill(process.processIdentifier, SIGKILL) }
                DispatchQueue.global().asyncAfter(deadline: .now() + 10, execute: watchdog)
                let number = String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
                watchdog.cancel()
                display = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
                guard display.count > 1 else { throw CocoaError(.fileReadUnknown) }
                // Named once its sockets listen, it may still be starting: ready when another client gets in (≤ 10 s).
                for _ in 0..<100 {
                    if try Self.xprop(display, ["-root", "-len", "0"]) == 0 { break }
                    usleep(100_000)
                }
            }

            /// Runs `xprop` with `arguments` on `display`, its output dropped; its exit status.
            static func xprop(_ display: String, _ arguments: [String]) throws -> Int32 {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/xprop")
                process.arguments = ["-display", display] + arguments
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                process.waitUntilExit()
                return process.terminationStatus
            }

            /// SIGKILL: a child started from a test's thread inherits its
            /// blocked signals, SIGTERM among them.
            func stop() {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }

        private func xprop(_ display: String, _ arguments: [String]) throws -> Int32 {
            try PrivateXvfb.xprop(display, arguments)
        }

        @Test("Unset, then 1, then 0, an INTEGER 1, two items and 8 bits, as another client sets it, read as the X drivers read it",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb")
                  && FileManager.default.isExecutableFile(atPath: "/usr/bin/xprop")))
        func readsTheProperty() throws {
            let xvfb = try PrivateXvfb()
            defer { xvfb.stop() }
            let previous = ProcessInfo.processInfo.environment["DISPLAY"]
            setenv("DISPLAY", xvfb.display, 1)
            defer { if let previous { setenv("DISPLAY", previous, 1) } else { unsetenv("DISPLAY") } }
            let session = try SDLSession(videoDriver: "x11")
            defer { session.shutdown() }
            let title = "cadence-vrr-\(getpid())"
            let window = try Window(title: title, width: 320, height: 200)
            #expect(X11VariableRefresh.property(of: window) == .unset)
            let name = ["-name", title, "-f", "_VARIABLE_REFRESH", "32c", "-set", "_VARIABLE_REFRESH"]
            try #require(try xprop(xvfb.display, name + ["1"]) == 0)
            #expect(X11VariableRefresh.property(of: window) == .value(1))
            try #require(try xprop(xvfb.display, name + ["0"]) == 0)
            #expect(X11VariableRefresh.property(of: window) == .value(0))
            // The drivers take one 32-bit item of any type: an INTEGER 1 asks too.
            let typed = { (format: String) in ["-name", title, "-f", "_VARIABLE_REFRESH", format, "-set", "_VARIABLE_REFRESH"] }
            try #require(try xprop(xvfb.display, typed("32i") + ["1"]) == 0)
            #expect(X11VariableRefresh.property(of: window) == .value(1))
            // Two items, or 8 bits: ignored by the drivers, so nothing is asked.
            try #require(try xprop(xvfb.display, typed("32c") + ["1,1"]) == 0)
            let twoItems = X11VariableRefresh.property(of: window)
            #expect(twoItems == .ignored("2 items of 32 bits; the X driver reads one of 32"))
            try #require(try xprop(xvfb.display, typed("8c") + ["1"]) == 0)
            let eightBits = X11VariableRefresh.property(of: window)
            #expect(eightBits == .ignored("1 item of 8 bits; the X driver reads one of 32"))
        }

        @Test func aWindowNotOnX11() throws {
            let session = try SDLSession(videoDriver: "offscreen")
            defer { session.shutdown() }
            let window = try Window(title: "offscreen", width: 320, height: 200, hidden: true)
            #expect(X11VariableRefresh.property(of: window) == .notX11)
        }
    }
}
