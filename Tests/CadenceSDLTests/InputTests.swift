import CSDL2
import Testing
@_spi(Programs) @testable import CadenceSDL

extension SDLSuites {
    @Suite("Input: every key, modifiers, mouse buttons, the wheel, game controllers")
    struct Input {
        /// Queues a raw SDL key-down, as the keyboard driver would.
        private func pushKey(_ keycode: SDL_KeyCode, mod: SDL_Keymod = KMOD_NONE) {
            var e = SDL_Event()
            e.key.type = SDL_KEYDOWN.rawValue
            e.key.state = UInt8(SDL_PRESSED)
            e.key.keysym.sym = SDL_Keycode(keycode.rawValue)
            e.key.keysym.mod = UInt16(mod.rawValue)
            SDL_PushEvent(&e)
        }

        @Test("Named keys, F-keys, modifier keys and the keys SDL names arrive as themselves, with the modifiers held")
        func keys() throws {
            let session = try SDLSession(videoDriver: "dummy")
            defer { session.shutdown() }
            _ = EventPump.poll()
            pushKey(SDLK_RETURN, mod: SDL_Keymod(KMOD_LCTRL.rawValue | KMOD_RSHIFT.rawValue))
            pushKey(SDLK_F5)
            pushKey(SDLK_F13, mod: KMOD_RALT)
            pushKey(SDLK_LSHIFT, mod: KMOD_LSHIFT)
            pushKey(SDLK_KP_5)
            pushKey(SDLK_q, mod: KMOD_LGUI)
            #expect(EventPump.poll() == [
                .keyDown(.enter, modifiers: [.control, .shift], isRepeat: false),
                .keyDown(.function(5), modifiers: [], isRepeat: false),
                .keyDown(.function(13), modifiers: .alt, isRepeat: false),
                .keyDown(.leftShift, modifiers: .shift, isRepeat: false),
                .keyDown(.other(Int32(SDLK_KP_5.rawValue)), modifiers: [], isRepeat: false),
                .keyDown(.q, modifiers: .gui, isRepeat: false),
            ])
            // Letters in either case are the one key; names are SDL's, both ways.
            #expect(Key.letter("Q") == .q && Key.letter("q") == .q && Key.q.letter == "q" && Key.enter.letter == nil)
            #expect(Key.other(Int32(SDLK_KP_5.rawValue)).name == "Keypad 5")
            #expect(Key(named: "Return") == .enter && Key(named: "F24") == .function(24) && Key(named: "Tab") == .tab)
            #expect(Key(named: "no such key") == nil)
            // A synthetic key round-trips through SDL's queue with its modifiers.
            EventPump.pushKey(.pageDown, modifiers: [.shift, .control])
            #expect(EventPump.poll() == [.keyDown(.pageDown, modifiers: [.shift, .control], isRepeat: false)])
        }

        @Test("Mouse clicks say which button; the wheel says how far, the flipped direction turned back")
        func mouse() throws {
            let session = try SDLSession(videoDriver: "dummy")
            defer { session.shutdown() }
            _ = EventPump.poll()
            EventPump.pushMouseButton(down: true, x: 5, y: 6, button: .right)
            EventPump.pushMouseButton(down: false, x: 7, y: 8, button: .middle)
            for (x, y, flipped) in [(Float(0.5), Float(-1), false), (Float(0), Float(2), true)] {
                var e = SDL_Event()
                e.wheel.type = SDL_MOUSEWHEEL.rawValue
                e.wheel.preciseX = x; e.wheel.preciseY = y
                e.wheel.direction = (flipped ? SDL_MOUSEWHEEL_FLIPPED : SDL_MOUSEWHEEL_NORMAL).rawValue
                SDL_PushEvent(&e)
            }
            #expect(EventPump.poll() == [.mouseDown(x: 5, y: 6, button: .right), .mouseUp(x: 7, y: 8, button: .middle),
                                         .mouseWheel(dx: 0.5, dy: -1), .mouseWheel(dx: 0, dy: -2)])
        }

        @Test("A game controller plugged in is opened and announced; its buttons and sticks arrive; unplugged, it is gone")
        func controller() throws {
            let session = try SDLSession(videoDriver: "dummy")
            defer { session.shutdown() }
            try #require(GameControllers.start(), "SDL's game controller subsystem")
            _ = EventPump.poll()
            // SDL's virtual joystick, typed as a game controller: SDL maps its
            // buttons and axes in the game controller's own order.
            let index = SDL_JoystickAttachVirtual(SDL_JOYSTICK_TYPE_GAMECONTROLLER, 6, 15, 0)
            try #require(index >= 0, "\(String(cString: SDL_GetError()))")
            let added = EventPump.poll()
            guard case .controllerAdded(let id, let name)? = added.first else {
                Issue.record("no controller added: \(added)"); return
            }
            #expect(!name.isEmpty && GameControllers.connected == [id])
            let joystick = SDL_JoystickFromInstanceID(id)
            SDL_JoystickSetVirtualButton(joystick, Int32(SDL_CONTROLLER_BUTTON_B.rawValue), 1)
            SDL_JoystickSetVirtualAxis(joystick, Int32(SDL_CONTROLLER_AXIS_LEFTX.rawValue), 32_767)
            SDL_JoystickSetVirtualAxis(joystick, Int32(SDL_CONTROLLER_AXIS_LEFTY.rawValue), -32_768)
            SDL_JoystickUpdate()
            let moved = EventPump.poll()
            #expect(moved.contains(.controllerButton(id, .b, down: true)), "\(moved)")
            #expect(moved.contains(.controllerAxis(id, .leftX, value: 1)), "\(moved)")
            #expect(moved.contains(.controllerAxis(id, .leftY, value: -1)), "\(moved)")
            #expect(GameControllers.isDown(.b, on: id) && !GameControllers.isDown(.a, on: id))
            #expect(GameControllers.value(of: .leftX, on: id) == 1)
            SDL_JoystickDetachVirtual(index)
            #expect(EventPump.poll().contains(.controllerRemoved(id)))
            #expect(GameControllers.connected.isEmpty && !GameControllers.isDown(.b, on: id))
        }
    }
}
