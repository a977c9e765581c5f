/// Progress of a search, reported after each completed iteration (and on aspiration
/// failures, with a bound).
public struct SearchInfo: Sendable {
    /// The completed depth, and the deepest ply reached.
    public var depth: Int
    public var selectiveDepth: Int
    /// Centipawns from the side to move's view, or a mate score (see ``Score``).
    public var score: Int
    /// `.exact`, or `.lower`/`.upper` when the score is only a bound.
    public var bound: Bound
    /// Nodes searched by all threads so far.
    public var nodes: UInt64
    /// Milliseconds since the search started.
    public var time: Int
    /// Per-mille of the transposition table in use.
    public var hashfull: Int
    /// The expected line, from the root move on.
    public var principalVariation: [Move]
    /// 1 for the best line, 2 for the second (MultiPV), and so on.
    public var multiPV = 1

    /// A report of one iteration (or one MultiPV line of it).
    public init(depth: Int, selectiveDepth: Int, score: Int, bound: Bound, nodes: UInt64, time: Int, hashfull: Int,
                principalVariation: [Move], multiPV: Int = 1) {
        self.depth = depth
        self.selectiveDepth = selectiveDepth
        self.score = score
        self.bound = bound
        self.nodes = nodes
        self.time = time
        self.hashfull = hashfull
        self.principalVariation = principalVariation
        self.multiPV = multiPV
    }

    /// Nodes per second.
    public var nodesPerSecond: UInt64 { time > 0 ? nodes * 1000 / UInt64(time) : nodes * 1000 }
}

/// The root move being searched, reported once a search has run for a second.
public struct CurrentMoveInfo: Sendable {
    /// The iteration being searched.
    public var depth: Int
    /// The root move being searched now.
    public var move: Move
    /// 1-based position of the move in the root move order.
    public var number: Int

    /// The move being searched at `depth`, `number`th in the root order.
    public init(depth: Int, move: Move, number: Int) {
        self.depth = depth
        self.move = move
        self.number = number
    }
}

/// The outcome of a search.
public struct SearchResult: Sendable {
    /// The move to play; `nil` only when there is no legal move.
    public var bestMove: Move?
    /// The expected reply, when known.
    public var ponderMove: Move?
    /// Centipawns or a mate score for the side to move (see ``Score``).
    public var score: Int
    /// The last completed depth.
    public var depth: Int
    /// Nodes searched by all threads.
    public var nodes: UInt64
    /// The best lines of the last completed iteration, best first (one per MultiPV line).
    public var lines: [RootLine] = []

    /// A result as a search ends.
    public init(bestMove: Move?, ponderMove: Move?, score: Int, depth: Int, nodes: UInt64, lines: [RootLine] = []) {
        self.bestMove = bestMove
        self.ponderMove = ponderMove
        self.score = score
        self.depth = depth
        self.nodes = nodes
        self.lines = lines
    }
}

/// One root move with its score and principal variation.
public struct RootLine: Sendable, Equatable {
    /// The root move.
    public var move: Move
    /// Centipawns or a mate score, from the side to move's view.
    public var score: Int
    /// The expected line, starting with ``move``.
    public var principalVariation: [Move]

    /// A root line.
    public init(move: Move, score: Int, principalVariation: [Move]) {
        self.move = move
        self.score = score
        self.principalVariation = principalVariation
    }
}
