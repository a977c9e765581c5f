/// Why a move given as text or as a value was refused by ``Game/play(_:)``.
public enum MoveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not a move in any notation that names a legal move here.
    case unreadable(String)
    /// A well-formed move that is not legal in the position.
    case illegal(Move)

    public var description: String {
        switch self {
        case .unreadable(let text): "'\(text)' is not a legal move here"
        case .illegal(let move): "\(move) is not legal here"
        }
    }
}

/// A game: the position it started from, the moves played, and the key history used for
/// repetition detection. Moves are validated on the way in.
public struct Game: Sendable {
    /// The position the game started from.
    public let startPosition: Position
    /// The current position.
    public private(set) var position: Position
    /// The moves played, in order.
    public private(set) var moves: [Move] = []
    private var undos: [Undo] = []
    /// Keys of the start position and of the position after each move (`keys.count == moves.count + 1`).
    public private(set) var keys: [UInt64]

    /// A game from `start` (the start position by default) with no moves yet.
    public init(_ start: Position = .start) {
        startPosition = start
        position = start
        keys = [start.key]
    }

    /// Plays a legal move; throws ``MoveError/illegal(_:)`` and changes nothing otherwise.
    public mutating func play(_ move: Move) throws(MoveError) {
        guard position.isLegal(move) else { throw .illegal(move) }
        undos.append(position.make(move))
        moves.append(move)
        keys.append(position.key)
    }

    /// Plays a move written in ICCS, WXF or Chinese notation.
    @discardableResult
    public mutating func play(_ text: String) throws(MoveError) -> Move {
        guard let move = position.parseMove(text) else { throw .unreadable(text) }
        try play(move)
        return move
    }

    /// Takes back the last move; returns it, or `nil` at the start.
    @discardableResult
    public mutating func takeBack() -> Move? {
        guard let move = moves.popLast(), let undo = undos.popLast() else { return nil }
        position.unmake(move, undo)
        keys.removeLast()
        return move
    }

    /// How many earlier positions, since the last capture, equal the current one (same
    /// pieces, same side to move).
    public var repetitionCount: Int { earlierOccurrences.count }

    /// The positions before `moves[start...]`, in order: the same as
    /// `positionsBeforeMoves[start...]`, but taken back from the current position, so the cost
    /// is that of the tail alone. `start` is clamped to `0...moves.count`.
    public func positionsBeforeMoves(from start: Int) -> [Position] {
        let n = moves.count
        let first = min(max(start, 0), n)
        var result: [Position] = []
        result.reserveCapacity(n - first)
        var p = position
        for index in stride(from: n - 1, through: first, by: -1) {
            p.unmake(moves[index], undos[index])
            result.append(p)
        }
        result.reverse()
        return result
    }

    /// Indices into ``keys`` (equally, numbers of moves played) at which the current position
    /// stood before, since the last capture, most recent first. Only positions an even
    /// number of plies back can match.
    public var earlierOccurrences: [Int] {
        let n = keys.count - 1
        let reach = min(position.halfmoveClock, n)
        return stride(from: 2, through: reach, by: 2).map { n - $0 }.filter { keys[$0] == position.key }
    }
}
