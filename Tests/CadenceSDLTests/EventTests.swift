import CSDL2
import Testing
@_spi(Programs) @testable import CadenceSDL

extension SDLSuites {
    @Suite("Events from SDL's queue")
    struct Events {
        /// Queues a raw SDL key event, as the keyboard driver would.
        private func pushKey(_ type: SDL_EventType, _ keycode: SDL_KeyCode) {
            var e = SDL_Event()
            e.key.type = type.rawValue
            e.key.state = UInt8(type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED)
            e.key.keysym.sym = SDL_Keycode(keycode.rawValue)
            SDL_PushEvent(&e)
        }

        @Test("Arrow keys up and down, and keys going up, are translated")
        func keysDownAndUp() throws {
            let session = try SDLSession(videoDriver: "dummy")
            defer { session.shutdown() }
            _ = EventPump.poll()
            pushKey(SDL_KEYDOWN, SDLK_UP)
            pushKey(SDL_KEYDOWN, SDLK_DOWN)
            pushKey(SDL_KEYUP, SDLK_UP)
            pushKey(SDL_KEYUP, SDLK_q)
            #expect(EventPump.poll() == [.keyDown(.up, modifiers: [], isRepeat: false),
                                         .keyDown(.down, modifiers: [], isRepeat: false),
                                         .keyUp(.up), .keyUp(.letter("q"))])
        }
    }
}
