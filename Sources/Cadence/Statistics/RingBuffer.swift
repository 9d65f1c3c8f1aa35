/// The last `capacity` values appended, oldest first: a fixed window over a
/// stream (recent frame costs, intervals, latencies) that never reallocates.
package struct RingBuffer<Element>: Sendable where Element: Sendable {
    /// How many values it keeps.
    package let capacity: Int
    private var storage: [Element] = []
    private var next = 0

    /// An empty buffer keeping the last `capacity` values.
    package init(capacity: Int) {
        precondition(capacity > 0, "a ring buffer keeps at least one value")
        self.capacity = capacity
        storage.reserveCapacity(capacity)
    }

    /// Adds `value`, forgetting the oldest once full.
    package mutating func append(_ value: Element) {
        if storage.count < capacity {
            storage.append(value)
        } else {
            storage[next] = value
        }
        next = (next + 1) % capacity
    }

    /// How many values it holds (at most ``capacity``).
    package var count: Int { storage.count }

    /// The values, oldest first.
    package var elements: [Element] {
        storage.count < capacity ? storage : Array(storage[next...] + storage[..<next])
    }
}
