import ProgramSupport

/// The bench's messages, on standard error, each line starting "cadence-bench: ".
let printError = StandardError(program: "cadence-bench")
