/// Search scores in centipawns from the side to move's point of view, with mate encoded as
/// distance from the root: `mate - ply` for delivering mate at `ply`, `-mate + ply` for
/// being mated.
public enum Score {
    /// The deepest ply the search reaches (bounds per-ply tables).
    public static let maxPly = 128
    /// Mate at the root (never reached: a mate is at least one ply away).
    public static let mate = 30000
    /// Larger than any score.
    public static let infinite = 31000
    /// Scores at or above this (or at or below its negation) are mates.
    public static let mateBound = mate - maxPly
    /// A drawn position.
    public static let draw = 0
    /// A win by the repetition rules (the opponent must stop perpetual check or chase) at the
    /// root; `ruleWin - ply` at `ply`. Below the mate range, so it is never shown as a mate.
    public static let ruleWin = 20000
    /// No score (an empty transposition-table field).
    public static let none = 32000

    /// Whether `score` announces a mate for either side.
    @inlinable public static func isMate(_ score: Int) -> Bool { abs(score) >= mateBound }

    /// Mate distance in moves (positive: the side to move mates; negative: it is mated).
    @inlinable
    public static func mateInMoves(_ score: Int) -> Int {
        score > 0 ? (mate - score + 1) / 2 : -(mate + score) / 2
    }

    /// Converts a score relative to the root into one relative to the node at `ply`, as
    /// stored in the transposition table.
    @inlinable
    public static func toTable(_ score: Int, ply: Int) -> Int {
        score >= mateBound ? score + ply : score <= -mateBound ? score - ply : score
    }

    /// The inverse of ``toTable(_:ply:)``.
    @inlinable
    public static func fromTable(_ score: Int, ply: Int) -> Int {
        score >= mateBound ? score - ply : score <= -mateBound ? score + ply : score
    }
}
