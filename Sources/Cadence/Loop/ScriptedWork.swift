/// Game work spent on purpose: the sample's `--work-schedule` and `--hitch`,
/// and the tests' scripted frames. Virtual time in simulation, a real busy
/// loop in real time. Not part of the public API: a game's work is its own.
package protocol ScriptedWork {
    /// Spends `duration` as if the game were working.
    func doWork(_ duration: Nanoseconds)
}

extension FrameLoop {
    /// Spends `duration` as game work on this loop's backend, where it can.
    package func doWork(_ duration: Nanoseconds) {
        (backend as? ScriptedWork)?.doWork(duration)
    }
}
