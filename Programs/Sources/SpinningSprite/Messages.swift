import ProgramSupport

/// The sample's messages for the user, on standard error, each line
/// starting "spinning-sprite: ".
let printError = StandardError(program: "spinning-sprite")
