import Cadence
import CadenceSDL

/// The sample's settings, parsed and validated from the command line.
struct GameConfig {
    /// When the run ends.
    enum Limit: Equatable {
        case frames(Int)
        case duration(Nanoseconds)
        case untilQuit
    }

    /// Scripted input, pushed through SDL's event queue (demos and tests).
    enum InputAction: Equatable {
        case key(Key, shift: Bool)
        case dragSlider(toFPS: Double)
    }

    var isSimulation: Bool
    var fps: FPSRequest
    var latency: FrameLatency
    var fpsSchedule: [(at: Nanoseconds, value: FPSRequest)]
    var hitches: [(at: Nanoseconds, duration: Nanoseconds)]
    var workSchedule: Schedule<Nanoseconds>
    var spinSpeed: Double
    var limit: Limit
    var inputScript: [(at: Nanoseconds, action: InputAction)]
}

extension FPSSlider.Request {
    /// The slider position for a command-line request.
    init(_ request: FPSRequest) {
        switch request {
        case .displayRate: self = .displayRate
        case .fixed(let fps): self = .fps(fps)
        case .adaptive: self = .adaptive
        case .uncapped: self = .uncapped
        }
    }
}
