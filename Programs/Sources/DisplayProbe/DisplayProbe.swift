import ArgumentParser

/// `display-probe`: what Cadence detects about this machine's displays, and an
/// EDID decoder to check that detection against a monitor's own bytes.
///
/// Exit status: 0 when it could say something (even "no displays"), 1 when no
/// display server can be reached (or SDL would show nothing), 64 for a
/// usage error, 65 for a file that is not an EDID.
@main
struct DisplayProbe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "display-probe",
        abstract: "Prints what Cadence detects about this machine's displays, or decodes an EDID file.",
        subcommands: [ListDisplays.self, DecodeEDID.self],
        defaultSubcommand: ListDisplays.self
    )
}
