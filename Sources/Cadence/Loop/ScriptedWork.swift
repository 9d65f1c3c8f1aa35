/// Game work spent on purpose: the sample's `--work-schedule` and `--hitch`,
/// and the tests' scripted frames. Virtual time in simulation, a real busy
/// loop in real time. Public for the programs built on the library (the
/// sample, the bench), which live in a package of their own; a game's work is
/// its own and never needs it.
package protocol ScriptedWork {
    /// Spends `duration` as if the game were working.
    func doWork(_ duration: Nanoseconds)
}

extension FrameLoop {
    /// Spends `duration` as game work on this loop's backend, where it can.
    public func doWork(_ duration: Nanoseconds) {
        (backend as? ScriptedWork)?.doWork(duration)
    }
}
