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

        /// A clock: milliseconds left, the increment per move, and the moves to the next control.
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
    /// Larger times (about 31 years in milliseconds) are treated as this one, so that
    /// arithmetic on them cannot overflow; the protocol clamps what it reads to it.
    public static let clockLimit = 1_000_000_000_000
    /// The default of ``moveOverhead`` (and of the protocol's `Move Overhead` option).
    public static let defaultMoveOverhead = 10
    /// Milliseconds kept back for communication delays, charged once per move.
    public var moveOverhead = SearchLimits.defaultMoveOverhead
    /// Whether the GUI lets the engine think on the opponent's time (UCI `Ponder`): a clock
    /// then gives each move a little more.
    public var ponderEnabled = false
    /// When this move's time began (the protocol: when `go` arrived). Time bounds count from
    /// it, so that work before the search (loading a network, probing the book, starting
    /// threads) is paid from the budget, not on top of it. `nil`: from the search's start.
    public var startTime: MonotonicInstant?

    /// Limits as given; with none set the search runs until stopped.
    public init(depth: Int? = nil, nodes: UInt64? = nil, moveTime: Int? = nil, clock: Clock? = nil,
                infinite: Bool = false) {
        self.depth = depth
        self.nodes = nodes
        self.moveTime = moveTime
        self.clock = clock
        self.infinite = infinite
    }
}
