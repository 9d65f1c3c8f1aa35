import Foundation

/// A Unix socket that accepts connections and never answers as a compositor
/// would: silent (a compositor hung or stopped), or speaking bytes that are
/// no protocol at all. Real, in the kernel: the client's connect succeeds and
/// its reads find nothing, or garbage.
final class SilentSocket: @unchecked Sendable {
    let path: String
    private let listener: Int32

    init(in directory: URL, name: String, garbage: Bool) throws {
        path = directory.appendingPathComponent(name).path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw DesktopError("path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw DesktopError("cannot listen on \(path): \(errno)") }
        Thread.detachNewThread {
            var held: [Int32] = []
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { break }
                held.append(connection)
                if garbage {
                    let noise = (0..<256).map { _ in UInt8.random(in: 0...255) }
                    _ = noise.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            }
            held.forEach { Glibc.close($0) }
        }
    }

    /// Stops accepting; the connections it held close.
    func close() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        unlink(path)
    }
}
