/// What made a late frame late, told from its own times: the statistics
/// panel counts them, so that "late 83" says whose fault it was.
package enum LateCause: CaseIterable, Sendable {
    /// The game's work: it ran past the target, or past the moment the frame
    /// had to be presented, so the presenter had nothing left to wait for.
    case work
    /// The presenter's wake-up: the work ended in time and the presenter
    /// waited, but it was submitted after its target (a busy machine wakes
    /// a sleeping thread late).
    case wakeUp
    /// The present path: submitted before its target, the frame still
    /// reached the glass after it (a slow swap or copy, the compositor, or a
    /// wake-up too late for the vblank before the target).
    case present

    /// How close to the work's end a present may be submitted and still
    /// count as not waited for: a wait shorter than this is the wait's own cost.
    static let noWait: Nanoseconds = 250_000

    /// The cause of `record`'s lateness (meaningful for a late frame).
    init(of record: FrameRecord) {
        if record.workEnd > record.targetTimestamp || record.presentSubmit - record.workEnd < Self.noWait {
            self = .work
        } else if record.presentSubmit > record.targetTimestamp {
            self = .wakeUp
        } else {
            self = .present
        }
    }

    /// The cause as the statistics panel names it.
    package var name: String {
        switch self {
        case .work: "work"
        case .wakeUp: "wake-up"
        case .present: "present"
        }
    }
}
