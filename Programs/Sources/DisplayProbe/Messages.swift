import ProgramSupport

/// display-probe's messages and warnings, on standard error.
let printError = StandardError(program: "display-probe")
