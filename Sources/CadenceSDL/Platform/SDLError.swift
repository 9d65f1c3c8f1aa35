import CSDL2

/// An SDL call failed; carries the call's name and `SDL_GetError()` at that moment.
///
/// Every SDL failure in Cadence becomes this typed error instead of a null
/// pointer or a negative integer, so callers can print a message a user can act on.
public struct SDLError: Error, CustomStringConvertible, Sendable {
    /// The SDL function that failed, e.g. `SDL_CreateWindow`.
    public let call: String
    /// SDL's own explanation, from `SDL_GetError()`.
    public let message: String

    /// Captures `SDL_GetError()` for a failed `call`.
    public init(_ call: String) {
        self.call = call
        self.message = String(cString: SDL_GetError())
    }

    /// An error with an explicit message, for failures SDL itself does not describe.
    public init(_ call: String, message: String) {
        self.call = call
        self.message = message
    }

    /// `"SDL_CreateWindow failed: <SDL's message>"`.
    public var description: String { "\(call) failed: \(message)" }
}

/// Throws ``SDLError`` when an SDL status code is negative.
@inline(__always)
func check(_ status: Int32, _ call: String) throws {
    if status < 0 { throw SDLError(call) }
}
