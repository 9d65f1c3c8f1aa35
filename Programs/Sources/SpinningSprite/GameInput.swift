import Cadence
@_spi(Programs) import CadenceSDL

/// The player's input: keys and the mouse on the slider, and the scripted
/// input that stands in for them in demos and tests.
extension Game {
    func handleEvents(_ events: [Event], _ loop: FrameLoop) {
        let effective = sliderRate(lastFrame)
        for event in events {
            switch event {
            case .quit:
                quit = true
            case .keyDown(.escape, _, _), .keyDown(.letter("q"), _, _):
                quit = true
            case .keyDown(.letter("f"), _, false):
                onDisplayChange(.toggleFullscreen)
            case .keyDown(.letter("v"), _, false):
                onDisplayChange(.cycleVSync)
            case .keyDown(.letter("h"), _, _):
                injectedHitch = true
            case .keyDown(.letter("g"), _, false):
                scene?.showGraph.toggle()
            case .keyDown(.letter("t"), _, false):
                scene?.showHitchDemo.toggle()
            case .keyDown(.letter("l"), _, false):
                latency = latency == .low ? .smooth : .low
            case .keyDown(let key, let modifiers, _):
                _ = slider.handle(key: key, shift: modifiers.contains(.shift), effective: effective)
            case .resized(let w, let h):
                scene?.resize(width: w, height: h)
                slider.layout(width: scene?.width ?? w, height: scene?.height ?? h, displayRate: displayRate)
            case .hidden, .shown, .moved, .displayChanged, .keyUp, .mouseWheel, .controllerAdded, .controllerRemoved,
                 .controllerButton, .controllerAxis:
                break
            case .mouseDown(let x, let y, let button):
                guard let point = scene?.drawingPoint(x: x, y: y) else { break }
                _ = slider.handle(.mouseDown(x: point.x, y: point.y, button: button))
            case .mouseMotion(let x, let y, let dragging):
                guard let point = scene?.drawingPoint(x: x, y: y) else { break }
                _ = slider.handle(.mouseMotion(x: point.x, y: point.y, dragging: dragging))
            case .mouseUp:
                _ = slider.handle(event)
            }
        }
    }

    /// Scripted input for demos and tests, pushed through SDL's real event queue.
    func pushScriptedInput(at now: Nanoseconds) {
        for action in script.input(dueBy: now) {
            switch action {
            case .key(let key, let shift):
                EventPump.pushKey(key, modifiers: shift ? .shift : [])
            case .dragSlider(let fps):
                let from = slider.x(for: slider.knobFPS(effective: sliderRate(lastFrame)))
                let y = slider.track.y + slider.track.height / 2
                EventPump.pushMouseButton(down: true, x: from, y: y)
                EventPump.pushMouseMotion(x: (from + slider.x(for: fps)) / 2, y: y, dragging: true)
                EventPump.pushMouseMotion(x: slider.x(for: fps), y: y, dragging: true)
                EventPump.pushMouseButton(down: false, x: slider.x(for: fps), y: y)
            }
        }
    }
}
