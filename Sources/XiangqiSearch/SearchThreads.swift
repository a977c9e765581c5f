import XiangqiCore

/// What the threads of one parallel (Lazy SMP) search share besides the transposition table
/// and the ``SearchSignals``: each thread's node count, and the flag that ends the helpers.
///
/// Thread 0 is the main thread: it owns the clock, the limits and the reports. Helpers search
/// the same root with their own move-ordering statistics and skip some depths (see
/// ``skipsDepth(_:thread:)``), so that they fill the table with different parts of the tree.
public final class SearchThreadGroup: Sendable {
    final class Counter: Sendable {
        let nodes = RelaxedAtomic<UInt64>(0)
    }

    private let counters: [Counter]
    /// Set when the main thread's search has ended: helpers stop at their next check.
    public let finished = RelaxedAtomic<Bool>(false)

    /// A group for `threadCount` threads, the main one included.
    public init(threadCount: Int) {
        counters = (0..<max(1, threadCount)).map { _ in Counter() }
    }

    /// Threads in the group.
    public var threadCount: Int { counters.count }

    /// Publishes `thread`'s node count (every 256 nodes, and at the end of its search).
    @inline(__always)
    func publish(_ nodes: UInt64, thread: Int) {
        counters[thread].nodes.store(nodes)
    }

    /// The nodes other threads than `thread` have published.
    func nodes(excluding thread: Int) -> UInt64 {
        var total: UInt64 = 0
        for (i, counter) in counters.enumerated() where i != thread {
            total &+= counter.nodes.load()
        }
        return total
    }

    /// Nodes published by all threads.
    public var totalNodes: UInt64 { nodes(excluding: -1) }

    /// Whether helper `thread` (1 or more) leaves out iteration `depth`. Helpers are spread over
    /// twenty patterns: the first two search every other depth (odd or even), the next four
    /// search two depths in four, and so on, so that at any moment the threads are at
    /// different depths rather than all repeating the main thread's work.
    public static func skipsDepth(_ depth: Int, thread: Int) -> Bool {
        guard thread > 0 else { return false }
        let pattern = (thread - 1) % 20
        // Block size 1, 2, 3, 4 for patterns 0-1, 2-5, 6-11, 12-19; phase within the block.
        let (size, firstOfSize) = pattern < 2 ? (1, 0) : pattern < 6 ? (2, 2) : pattern < 12 ? (3, 6) : (4, 12)
        let phase = pattern - firstOfSize
        return ((depth + phase) / size) % 2 == 1
    }

    /// Which thread's result to play (`results[0]` is the main thread's): each thread votes for
    /// its best move with a weight that grows with its completed depth and with its score's
    /// margin over the worst thread's, and the thread whose move has the most votes wins (ties
    /// keep the lower index). Only a thread that completed at least the main thread's depth can
    /// win, so that the answer to `go depth N` is a depth-N result even when slow helpers
    /// outvote the main thread. A proven mate overrides the vote: the fastest mate found is
    /// played. Threads that completed no iteration have no vote. Returns an index into `results`.
    public static func chooseResult(_ results: [SearchResult]) -> Int {
        let voters = results.indices.filter { results[$0].depth > 0 && results[$0].bestMove != nil }
        guard var chosen = voters.first else { return 0 }
        let worst = voters.map { results[$0].score }.min() ?? 0
        var votes: [Move: Int] = [:]
        for i in voters {
            let r = results[i]
            votes[r.bestMove!, default: 0] += (r.score - worst + 14) * r.depth
        }
        let mainDepth = results[0].depth
        for i in voters.dropFirst() {
            let candidate = results[i], current = results[chosen]
            if current.score >= Score.mateBound {
                if candidate.score > current.score { chosen = i }
            } else if candidate.score >= Score.mateBound {
                chosen = i
            } else if candidate.score > -Score.mateBound, candidate.depth >= mainDepth,
                      votes[candidate.bestMove!, default: 0] > votes[current.bestMove!, default: 0] {
                chosen = i
            }
        }
        return chosen
    }
}
