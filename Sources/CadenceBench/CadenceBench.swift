import ArgumentParser

@main
struct CadenceBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cadence-bench", abstract: "Pacing benchmarks.")
    func run() throws {}
}
