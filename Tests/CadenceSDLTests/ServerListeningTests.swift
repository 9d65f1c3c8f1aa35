import CWaylandPresentation
import Foundation
import Glibc
import Testing

/// Whether a display server listens is asked without connecting to it: an X
/// server started without -noreset (xvfb-run's) resets when a client that
/// connected leaves, and drops the game's own connection if it comes during
/// the reset. Real Unix sockets, made here; the verdict is read from whether
/// a connection is waiting on the listener afterwards.
@Suite("Asking whether a display server listens")
struct ServerListeningTests {
    /// A Unix stream socket bound to `path` (in the abstract namespace when
    /// `abstract`), listening when `listens`; nil if it could not be made.
    private func bound(_ path: String, abstract: Bool = false, listens: Bool = true) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i + (abstract ? 1 : 0)] = byte }
        }
        let length = abstract ? MemoryLayout<sa_family_t>.size + 1 + bytes.count : MemoryLayout<sockaddr_un>.size
        let made = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        guard made == 0, !listens || listen(fd, 8) == 0 else { close(fd); return nil }
        return fd
    }

    /// Whether a connection waits on the listener `fd` (taken and closed if so).
    private func connectionWaits(on fd: Int32) -> Bool {
        let accepted = accept(fd, nil, nil)
        guard accepted >= 0 else { return false }
        close(accepted)
        return true
    }

    private func temporaryPath() -> String {
        NSTemporaryDirectory() + "cadence-listening-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    @Test("A listening socket is found, and no connection was made to it")
    func listeningWithoutConnecting() throws {
        let path = temporaryPath()
        let fd = try #require(bound(path))
        defer { close(fd); unlink(path) }
        #expect(cadence_server_listening(path) == 1)
        #expect(!connectionWaits(on: fd), "asking connected to the server")
    }

    @Test("A listener in the abstract namespace, as an X server has beside its path, is found without connecting")
    func abstractListener() throws {
        let path = temporaryPath()
        let fd = try #require(bound(path, abstract: true))
        defer { close(fd) }
        #expect(cadence_server_listening(path) == 1)
        #expect(!connectionWaits(on: fd), "asking connected to the server")
    }

    @Test("A socket bound but not listening, a path with no socket, and a plain file are not servers")
    func notListening() throws {
        let path = temporaryPath()
        let fd = try #require(bound(path, listens: false))
        #expect(cadence_server_listening(path) == 0)
        close(fd)
        unlink(path)
        #expect(cadence_server_listening(path) == 0)
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        defer { unlink(path) }
        #expect(cadence_server_listening(path) == 0)
    }

    @Test("A path with spaces is matched whole, and a longer name that starts with it is not")
    func wholePathsOnly() throws {
        let path = temporaryPath() + " with spaces"
        let fd = try #require(bound(path))
        defer { close(fd); unlink(path) }
        #expect(cadence_server_listening(path) == 1)
        #expect(cadence_server_listening(String(path.dropLast(7))) == 0)
        #expect(!connectionWaits(on: fd))
    }
}
