/// Low framerate compensation as a variable-refresh display's driver does it
/// (amdgpu's "below the range" mode; a G-Sync module in the monitor): the
/// game presents each frame once, and the panel shows it again by itself
/// when it would otherwise hold it longer than it can.
///
/// A VRR panel holds a frame for at most `longest` (1 / its minimum rate),
/// and each scan-out, of a new frame or a repeat, keeps it busy for
/// `shortest` (1 / its maximum rate): a frame presented during one waits for
/// it to end. The driver predicts how long the frame now on the glass will
/// stay there from how long the one before it did. When that is longer than
/// the panel can hold, it cuts the prediction into the fewest equal pieces
/// no longer than `longest` and repeats the frame at the end of each piece
/// but the last, so a game steady below the panel's minimum sees its frames
/// shown the moment it presents them. Past its planned repeats, or with no
/// prediction, the panel refreshes by itself every `longest`.
///
/// The simulator's panel follows these rules, and the display link plans
/// with them, so every target it hands out is one the panel can show.
package struct LowFramerateCompensation: Equatable, Sendable {
    /// The panel's range.
    package let minimum: FrameRate, maximum: FrameRate

    /// Compensation on a panel whose range is `minimum...maximum`.
    package init(minimum: FrameRate, maximum: FrameRate) {
        self.minimum = min(minimum, maximum)
        self.maximum = maximum
    }

    /// How long a scan-out keeps the panel busy: 1 / maximum rate, rounded
    /// down, so flips on an exact grid at the maximum rate all qualify.
    package var shortest: Nanoseconds { maximum.shortestPeriod }
    /// The longest the panel holds a frame: 1 / minimum rate, rounded up.
    package var longest: Nanoseconds { minimum.longestPeriod }

    /// The driver's plan for the frame that flipped at `flip`, the frame
    /// before it having stayed on the glass for `previousDuration` (nil: unknown).
    package func hold(from flip: Nanoseconds, previousDuration: Nanoseconds?) -> Hold {
        guard let duration = previousDuration, duration > longest else {
            return Hold(flip: flip, spacing: longest, planned: 0, longest: longest, scanOut: shortest)
        }
        let pieces = (duration + longest - 1) / longest
        return Hold(flip: flip, spacing: max(shortest, duration / pieces), planned: pieces - 1,
                    longest: longest, scanOut: shortest)
    }

    /// The driver's plan after the newest flip in `history`; nil before any.
    package func hold(after history: FlipHistory) -> Hold? {
        history.last.map { hold(from: $0, previousDuration: history.lastDuration) }
    }

    /// The flips of one frame on a variable-refresh panel: the new frame's,
    /// then `planned` repeats every `spacing`, then one every `longest` for as
    /// long as no new frame comes.
    package struct Hold: Equatable, Sendable {
        /// When the new frame flipped.
        package let flip: Nanoseconds
        /// The gap between the driver's planned repeats.
        package let spacing: Nanoseconds
        /// How many repeats the driver planned.
        package let planned: Int64
        /// The panel's longest hold and scan-out.
        let longest: Nanoseconds, scanOut: Nanoseconds

        /// Flip `j` of the hold: 0 is the new frame, the rest repeats.
        package func flip(_ j: Int64) -> Nanoseconds {
            j <= planned ? flip + j * spacing : flip + planned * spacing + (j - planned) * longest
        }

        /// The latest flip before `time` (the new frame's, at or before it).
        /// A frame presented at the very instant a repeat would start is shown
        /// instead, so a repeat at `time` does not count.
        package func latestFlip(before time: Nanoseconds) -> Nanoseconds {
            guard time > flip else { return flip }
            let end = flip + planned * spacing
            if time <= end { return flip + (time - flip - 1) / spacing * spacing }
            return end + (time - end - 1) / longest * longest
        }

        /// When a frame presented at `time` reaches the glass: at once, or
        /// when the scan-out under way (of the new frame or a repeat) ends.
        package func shownAt(presentedAt time: Nanoseconds) -> Nanoseconds {
            max(time, latestFlip(before: time) + scanOut)
        }

        /// Whether a frame presented at `time` is shown at exactly `time`.
        package func canShow(at time: Nanoseconds) -> Bool { shownAt(presentedAt: time) == time }

        /// The repeats the panel showed after the new frame, before `time`.
        package func repeats(before time: Nanoseconds) -> [Nanoseconds] {
            var out: [Nanoseconds] = []
            var j: Int64 = 1
            while flip(j) < time { out.append(flip(j)); j += 1 }
            return out
        }
    }
}
