/// Game work spent on purpose: the sample's `--work-schedule` and `--hitch`,
/// and the tests' scripted frames. Virtual time in simulation, a real busy
/// loop in real time. The programs built on the library (the sample, the
/// bench) reach it through ``FrameLoop/doWork(_:)``, behind
/// `@_spi(Programs)`; a game's work is its own and never needs it.
package protocol ScriptedWork {
    /// Spends `duration` as if the game were working.
    func doWork(_ duration: Nanoseconds)
}

extension FrameLoop {
    /// Spends `duration` as game work on this loop's backend, where it can.
    @_spi(Programs) public func doWork(_ duration: Nanoseconds) {
        (backend as? ScriptedWork)?.doWork(duration)
    }
}
