import Foundation
import Testing
@testable import CadenceSDL

/// When libdbus would fork to autolaunch a bus, judged on real files: a Unix
/// socket bound at `XDG_RUNTIME_DIR/bus`, a plain file there, nothing there.
@Suite("The session bus")
struct SessionBusTests {
    /// A fresh directory standing for `XDG_RUNTIME_DIR`, removed after `body`.
    private func withRuntimeDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory.path)
    }

    @Test("A named bus, or a socket at XDG_RUNTIME_DIR/bus, is the desktop's: left alone")
    func busPresent() throws {
        #expect(!SessionBus.wouldAutolaunch(in: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"]))
        try withRuntimeDirectory { runtime in
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            #expect(fd >= 0)
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let path = Array((runtime + "/bus").utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            #expect(bound == 0)
            #expect(!SessionBus.wouldAutolaunch(in: ["XDG_RUNTIME_DIR": runtime]))
        }
    }

    @Test("No address and no bus socket (nothing there, a plain file, no XDG_RUNTIME_DIR): libdbus would fork")
    func busAbsent() throws {
        #expect(SessionBus.wouldAutolaunch(in: [:]))
        #expect(SessionBus.wouldAutolaunch(in: ["DBUS_SESSION_BUS_ADDRESS": ""]))
        try withRuntimeDirectory { runtime in
            #expect(SessionBus.wouldAutolaunch(in: ["XDG_RUNTIME_DIR": runtime]))
            #expect(FileManager.default.createFile(atPath: runtime + "/bus", contents: Data()))
            #expect(SessionBus.wouldAutolaunch(in: ["XDG_RUNTIME_DIR": runtime]))
        }
    }
}
