/// The game, as the frame loop sees it (the Game Loop pattern's update + render).
///
/// Isolated to the main actor, as the loop that calls it is: SDL's windows,
/// renderer and events belong to the main thread, and a game's class that
/// conforms is main-actor isolated too, so it may use the top-level values of
/// its `main.swift` (which Swift 6 isolates to the main actor) with no
/// annotation of its own.
@MainActor
public protocol FrameLoopClient: AnyObject {
    /// Before each frame: read input, apply schedules, change the link's
    /// preferred rate or pause it. Return false to end the loop.
    func prepareFrame(_ loop: FrameLoop) -> Bool

    /// Update the game to `frame.targetTimestamp` and draw it.
    /// With ``FrameLatency/low`` the loop waited between ``prepareFrame(_:)``
    /// and this call: read input here too, or the wait's input is a frame old.
    func runFrame(_ frame: DisplayLinkFrame, _ loop: FrameLoop)

    /// The frame has been presented; statistics, traces and overlays read it here.
    func framePresented(_ record: FrameRecord, _ loop: FrameLoop)

    /// The link is paused: block until something may change that (an event),
    /// without spinning. Return false to end the loop.
    func idle(_ loop: FrameLoop) -> Bool
}

/// The defaults, so that a game writes only what it needs: usually just
/// ``FrameLoopClient/runFrame(_:_:)``, and ``FrameLoopClient/prepareFrame(_:)``
/// to read input.
extension FrameLoopClient {
    /// Runs every frame, until the link is invalidated.
    public func prepareFrame(_ loop: FrameLoop) -> Bool { true }

    /// Nothing to do with the record.
    public func framePresented(_ record: FrameRecord, _ loop: FrameLoop) {}

    /// Waits up to a quarter of a second for an event (one that might
    /// resume the link), then lets ``prepareFrame(_:)`` look at it.
    public func idle(_ loop: FrameLoop) -> Bool {
        loop.backend.waitForEvents(timeout: FrameLoop.idleWait)
        return true
    }
}
