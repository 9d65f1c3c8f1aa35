import ArgumentParser
import CadenceSDL

@main
struct DisplayProbe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "display-probe",
        abstract: "Prints what Cadence detects about this machine's displays."
    )

    func run() throws {
        let session = try SDLSession()
        defer { session.shutdown() }
        for d in Displays.all() {
            print("display \(d.index): \(d.name) \(d.modeWidth)x\(d.modeHeight) @ \(d.refreshHz) Hz")
        }
    }
}
