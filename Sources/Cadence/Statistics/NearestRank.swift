extension Array where Element == Nanoseconds {
    /// The `q` quantile (0…1) of these values, which must be sorted ascending,
    /// by nearest rank (the value at rank ⌈q·n⌉): always one of the values, so
    /// a p99 of a few hundred frames is a frame that really happened. Nil when empty.
    public func nearestRank(_ q: Double) -> Nanoseconds? {
        guard !isEmpty else { return nil }
        let rank = Swift.max(1, Int((q * Double(count)).rounded(.up)))
        return self[Swift.min(count, rank) - 1]
    }
}
