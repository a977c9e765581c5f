import XiangqiCore

/// What bounds a search. Any combination may be given; the search stops at the first bound
/// reached. With none at all it searches until stopped.
public struct SearchLimits: Sendable, Equatable {
    /// A side's clock.
    public struct Clock: Sendable, Equatable {
        /// Milliseconds left.
        public var timeLeft: Int
        /// Milliseconds added after each move.
        public var increment: Int
        /// Moves until the next time control, if any.
        public var movesToGo: Int?

        public init(timeLeft: Int, increment: Int = 0, movesToGo: Int? = nil) {
            self.timeLeft = timeLeft
            self.increment = increment
            self.movesToGo = movesToGo
        }
    }

    /// Maximum depth in plies.
    public var depth: Int?
    /// Maximum nodes.
    public var nodes: UInt64?
    /// Exact thinking time in milliseconds.
    public var moveTime: Int?
    /// The side to move's clock.
    public var clock: Clock?
    /// The opponent's clock (informational).
    public var opponentClock: Clock?
    /// Search for a mate in this many moves, then stop.
    public var mate: Int?
    /// Search until stopped, whatever else is set.
    public var infinite = false
    /// Milliseconds kept back for communication delays.
    public var moveOverhead = 10

    public init(depth: Int? = nil, nodes: UInt64? = nil, moveTime: Int? = nil, clock: Clock? = nil,
                infinite: Bool = false) {
        self.depth = depth
        self.nodes = nodes
        self.moveTime = moveTime
        self.clock = clock
        self.infinite = infinite
    }

    /// The soft target (no new iteration starts after half of it) and the hard limit (the
    /// search aborts) in milliseconds, or `nil` when time does not bound this search.
    public var timeBudget: (soft: Int, hard: Int)? {
        if infinite { return nil }
        var budget: (soft: Int, hard: Int)?
        if let clock {
            // Expected moves still to play on this clock (sudden death: 40), each charged
            // the move overhead, so that a short clock shrinks thinking to almost nothing
            // instead of running out: with 300 ms left and no increment the budget is 1 ms.
            let moves = max(1, min(clock.movesToGo ?? 40, 40))
            let usable = max(1, clock.timeLeft + clock.increment * (moves - 1) - moveOverhead * (2 + moves))
            let base = usable / moves
            let hard = max(1, min((clock.timeLeft - moveOverhead) * 3 / 5, base * 4))
            let soft = max(1, min(base, hard))
            budget = (soft, hard)
        }
        if let moveTime {
            // A fixed time is meant to be used: no soft target of its own.
            let t = max(1, moveTime - moveOverhead)
            budget = budget.map { (min($0.soft, t), min($0.hard, t)) } ?? (Int.max / 4, t)
        }
        return budget
    }
}
