#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The command line as the kernel passed it: bytes, which on Linux need not
/// be UTF-8. `CommandLine.arguments` (and so any argument parser) repairs
/// invalid UTF-8 with U+FFFD, which would turn a file name such as `\xff.csv`
/// into another name; a program that takes paths finds their real bytes here.
@_spi(Programs) public enum RawArguments {
    /// The bytes of the first argument that decodes to `value`, also as the
    /// value of `--flag=value`; `value`'s own UTF-8 when no argument does.
    public static func bytes(of value: String) -> [UInt8] {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let raw = Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
            if String(decoding: raw, as: UTF8.self) == value { return raw }
            if raw.starts(with: Array("--".utf8)), let equals = raw.firstIndex(of: UInt8(ascii: "=")),
               String(decoding: raw[(equals + 1)...], as: UTF8.self) == value {
                return Array(raw[(equals + 1)...])
            }
        }
        return Array(value.utf8)
    }
}
